package notify

import (
	"context"
	"errors"
	"slices"
)

// ErrConflict is returned by UpdateNotification when the stored
// notification changed or disappeared since it was read.
var ErrConflict = errors.New("notification changed concurrently")

// Filter selects notifications of one organization. Empty fields do not
// filter; set ones combine with AND.
type Filter struct {
	OrganizationID string
	DocumentID     string
	LocationID     string
	RecipientID    string   // the user is a direct recipient
	IDs            []string // nil: any id
}

// Matches reports whether n passes f.
func (f Filter) Matches(n Notification) bool {
	return n.OrganizationID == f.OrganizationID &&
		(f.DocumentID == "" || n.DocumentID == f.DocumentID) &&
		(f.LocationID == "" || n.LocationID == f.LocationID) &&
		(f.RecipientID == "" || slices.Contains(n.Recipients(), f.RecipientID)) &&
		(len(f.IDs) == 0 || slices.Contains(f.IDs, n.ID))
}

// Cursor is a position in (timestamp, id) order.
type Cursor struct {
	Timestamp int64  `json:"t"`
	ID        string `json:"i"`
}

// ListQuery is a page of notifications in (timestamp, id) order. At most one
// of VisibleTo and ForYou is set.
type ListQuery struct {
	Filter
	VisibleTo string // "all" tab: the user is in the audience (directly or as Everyone)
	ForYou    string // "For You" tab: see Notification.InForYou
	Ascending bool
	After     *Cursor // nil: from the start
	Limit     int
}

// NotificationStore persists notifications. Every method is scoped to the
// workspace ws.
type NotificationStore interface {
	// SaveNotification inserts n, or replaces the notification with the same
	// organization and id (re-adding an id overwrites it).
	SaveNotification(ctx context.Context, ws string, n Notification) error
	// ListNotifications returns up to q.Limit notifications matching q,
	// strictly after q.After in the requested order.
	ListNotifications(ctx context.Context, ws string, q ListQuery) ([]Notification, error)
	// MatchNotifications returns every notification matching f.
	MatchNotifications(ctx context.Context, ws string, f Filter) ([]Notification, error)
	// UpdateNotification writes the fields an update may change (actionUser,
	// display fields, source data, read state, and what derives from them)
	// and n.Rev over the stored notification, if that still has revision
	// rev; ErrConflict when it changed or is gone.
	UpdateNotification(ctx context.Context, ws string, n Notification, rev string) error
	// MarkRead adds readers to the notification's readByUserIds (and, with
	// persist, to its persistReadForUsers) whatever else changed meanwhile,
	// sets revision newRev and returns the result; ErrConflict when the
	// notification is gone.
	MarkRead(ctx context.Context, ws, orgID, id string, readers []string, persist bool, newRev string) (Notification, error)
	// DeleteNotifications deletes the organization's notifications with
	// these ids.
	DeleteNotifications(ctx context.Context, ws, orgID string, ids []string) error
	// UserFeed returns up to limit notifications userID is involved in (see
	// Notification.Involved), most recently added first, starting below
	// feed position before (0: from the newest). next is the position to
	// pass on for the following page, 0 when there is none.
	UserFeed(ctx context.Context, ws, orgID, userID string, before int64, limit int) (ns []Notification, next int64, err error)
}

// ConfigStore persists notification configurations, keyed by organization,
// user and document ("" for the user's organization-level default).
type ConfigStore interface {
	// LoadConfigs returns the stored configurations of userID for docIDs,
	// by document id; missing ones are absent.
	LoadConfigs(ctx context.Context, ws, orgID, userID string, docIDs []string) (map[string]Config, error)
	// SaveConfigs sets the non-empty levels of c for every user and
	// document, keeping the levels c leaves empty.
	SaveConfigs(ctx context.Context, ws, orgID string, userIDs, docIDs []string, c Config, at int64) error
}

// DocumentStore re-keys and inspects data by document id.
type DocumentStore interface {
	// MoveDocument moves every notification and configuration of document
	// from to document to and returns how many records moved.
	MoveDocument(ctx context.Context, ws, orgID, from, to string) (int, error)
	// DocumentHasData reports whether any notification or configuration
	// names the document.
	DocumentHasData(ctx context.Context, ws, orgID, docID string) (bool, error)
	// FinishedMigration returns a completed migration, ok false when
	// migrationID has not completed.
	FinishedMigration(ctx context.Context, ws, migrationID string) (m Migration, ok bool, err error)
	// RecordMigration stores m as completed.
	RecordMigration(ctx context.Context, ws string, m Migration, moved int, at int64) error
}

// Store is everything the service persists.
type Store interface {
	NotificationStore
	ConfigStore
	DocumentStore
	UserEraseStore
}

// UserEraseStore removes what concerns one user (GDPR erasure).
type UserEraseStore interface {
	// EraseUser deletes the notifications the user is involved in (see
	// Notification.Involved), with their feed entries, takes the user out
	// of the audience (and read state) of those they are only in the
	// AudienceUsers of, and deletes the user's notification
	// configuration; it returns how many records went or changed.
	EraseUser(ctx context.Context, ws, userID string) (int, error)
}
