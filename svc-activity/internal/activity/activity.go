// Package activity is the business logic of activity log records: add
// (idempotent overwrite by id), update, get and delete, the document
// migration hooks, and the events every accepted change publishes.
package activity

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/opencollab/backend/pkg/activityevent"
	"github.com/opencollab/backend/pkg/events"
)

// FeatureTypes are the allowed values of featureType.
var FeatureTypes = []string{"comment", "reaction", "recorder", "crdt", "custom"}

// featureCustom is the feature type whose records must name a target.
const featureCustom = "custom"

// EventSource is the source name of this service's events; they travel on
// events.Stream(EventSource).
const EventSource = activityevent.Source

// Event types published by the operations.
const (
	EventAdd    = activityevent.Add
	EventUpdate = activityevent.Update
	EventDelete = activityevent.Delete
)

// Record is one stored activity log record. The free-form fields hold JSON
// exactly as the client sent it (compacted), so they read back with their
// types and key order; nil means absent.
type Record struct {
	OrganizationID             string
	DocumentID                 string
	ID                         string
	FeatureType                string
	ActionType                 string
	ActionUser                 json.RawMessage // the whole User object as sent
	ActionUserID               string          // ActionUser.userId, queryable
	TargetEntityID             string
	TargetSubEntityID          string
	Changes                    json.RawMessage // object: field → {from, to}
	EntityData                 json.RawMessage
	EntityTargetData           json.RawMessage
	DisplayMessageTemplate     string
	DisplayMessageTemplateData json.RawMessage // object
	ActionIcon                 string
	IsActivityResolverUsed     bool
	Timestamp                  int64 // epoch ms, set by the server on every add
	// Immutable records can be neither updated, deleted nor overwritten
	// through the REST interface. This service never sets it; records
	// written by other means may carry it.
	Immutable bool
}

// Filter selects records of one organization. Empty fields match anything;
// the fields that are set combine with AND, lists with OR inside the list.
type Filter struct {
	OrganizationID string   `json:"o"`
	DocumentID     string   `json:"d,omitempty"`
	TargetEntityID string   `json:"t,omitempty"`
	UserID         string   `json:"u,omitempty"`
	FeatureTypes   []string `json:"f,omitempty"`
	ActionTypes    []string `json:"a,omitempty"`
	IDs            []string `json:"i,omitempty"`
	StartTime      *int64   `json:"s,omitempty"` // inclusive, epoch ms
	EndTime        *int64   `json:"e,omitempty"` // inclusive, epoch ms
}

// Cursor is the position of the last record of a page: pages are keyed on
// (timestamp, id), so a page costs the same however deep it is.
type Cursor struct {
	Timestamp int64  `json:"t"`
	ID        string `json:"i"`
}

// ListQuery is one page of a filtered listing.
type ListQuery struct {
	Filter
	Desc  bool
	After *Cursor // nil: from the start
	Limit int
}

// Patch is an update of one record. A nil json.RawMessage or *string leaves
// the field as is; JSON null clears a free-form field.
type Patch struct {
	ID                         string
	Changes                    json.RawMessage
	EntityData                 json.RawMessage
	EntityTargetData           json.RawMessage
	DisplayMessageTemplate     *string
	DisplayMessageTemplateData json.RawMessage
	ActionIcon                 *string
}

// Store is the persistence the operations need. Every method is scoped to
// one workspace.
type Store interface {
	// ReplaceAll writes every record, replacing a record of ws with the
	// same id wholesale. A record stored with the same content but its
	// timestamp is left as it is, and its Timestamp in recs set to the
	// stored one (the same add again, a retry, changes nothing). When one
	// of them is stored immutable it writes nothing and returns an
	// *ImmutableError naming it (ErrImmutable alone when a concurrent
	// writer made it immutable meanwhile).
	ReplaceAll(ctx context.Context, ws string, recs []Record) error
	// FindByIDs returns the records of ws in org with the given ids.
	FindByIDs(ctx context.Context, ws, org string, ids []string) ([]Record, error)
	// ApplyPatches applies each patch to its non-immutable record of ws in
	// org, in one round trip.
	ApplyPatches(ctx context.Context, ws, org string, patches []Patch) error
	// List returns up to q.Limit records matching q, ordered by (timestamp,
	// id), strictly after q.After.
	List(ctx context.Context, ws string, q ListQuery) ([]Record, error)
	// FindMatching returns every record of ws matching f.
	FindMatching(ctx context.Context, ws string, f Filter) ([]Record, error)
	// DeleteByIDs deletes the non-immutable records of ws in org with the
	// given ids.
	DeleteByIDs(ctx context.Context, ws, org string, ids []string) error
	// MoveDocument re-keys the records of ws in org from one document id to
	// another and returns how many moved.
	MoveDocument(ctx context.Context, ws, org, from, to string) (int64, error)
	// HasDocumentData reports whether ws has a record of doc in org.
	HasDocumentData(ctx context.Context, ws, org, doc string) (bool, error)
	UserEraseStore
}

// ErrImmutable is what the store returns when a write meets an immutable
// record it may not touch.
var ErrImmutable = errors.New("immutable record")

// ImmutableError is ErrImmutable for a known record.
type ImmutableError struct{ ID string }

func (e *ImmutableError) Error() string        { return fmt.Sprintf("activity %q is immutable", e.ID) }
func (e *ImmutableError) Is(target error) bool { return target == ErrImmutable }

// Publisher publishes events (pkg/events.Publisher).
type Publisher interface {
	Publish(ctx context.Context, evs ...events.Event) error
}

// PageTokens keeps pagination cursors (pkg/pagetoken.Store).
type PageTokens interface {
	Save(ctx context.Context, workspaceID, queryKey, cursor string) (string, error)
	Load(ctx context.Context, workspaceID, queryKey, token string) (string, error)
}

// Service runs the activity operations.
type Service struct {
	store  Store
	events Publisher
	pages  PageTokens
	now    func() time.Time
}

// NewService returns a Service over its dependencies.
func NewService(store Store, pub Publisher, pages PageTokens, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{store: store, events: pub, pages: pages, now: now}
}

// ItemResult is the per-id outcome of update and delete.
type ItemResult struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

// Per-item messages.
const (
	msgUpdated           = "Activity updated."
	msgDeleted           = "Activity deleted."
	msgNotFound          = "Activity not found."
	msgImmutableNoUpdate = "Activity is immutable and cannot be updated."
	msgImmutableNoDelete = "Activity is immutable and cannot be deleted."
)
