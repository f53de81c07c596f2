// Package notify is the business logic of notifications (add, read per user
// with "For You" / "all" tabs and read state, update, delete) and of the
// per-user notification configuration.
package notify

import (
	"encoding/json"
	"slices"
)

// Everyone stands for "every user of the organization" in an audience. No
// user can have it as id: user ids are required to be non-blank.
const Everyone = ""

// User is a user object as the client sent it. Only the id is read; the
// object is stored and returned unchanged.
type User struct {
	ID  string
	Raw json.RawMessage
}

// Notification is one stored notification. Raw fields hold client objects
// as sent (nil when absent).
type Notification struct {
	OrganizationID   string
	DocumentID       string
	ID               string
	LocationID       string
	Location         json.RawMessage
	ActionUser       User
	Source           string          // notificationSource
	SourceData       json.RawMessage // notificationSourceData
	HeadlineTemplate string          // displayHeadlineMessageTemplate
	HeadlineData     json.RawMessage // displayHeadlineMessageTemplateData
	BodyMessage      string          // displayBodyMessage
	NotifyUsers      []User
	NotifyAll        bool
	Context          json.RawMessage
	ResolverUsed     bool     // isNotificationResolverUsed
	ReadBy           []string // users who marked it read
	PersistReadFor   []string // users for whom it stays in "For You" once read
	Timestamp        int64    // epoch ms of the last add
	// Rev changes on every write, so a read-modify-write can tell whether
	// someone else wrote in between (there are no transactions).
	Rev string
	// WithheldRecipient is the headline's recipientUser when an add with
	// verifyUserPermissions found them without access to the document: the
	// headline data stays as sent (it is what the other recipients see),
	// but they are not a recipient. Their data export and erasure still
	// find the notification (Involved, the store's erase).
	WithheldRecipient string
	// AudienceVerified is set when a NotifyAll add verified permissions:
	// the "all" tab of AudienceUsers shows it, not Everyone's.
	AudienceVerified bool
	// AudienceUsers are the users of the organization svc-identity found
	// with access to the document at the add (sorted; recipients may be
	// among them). They are no recipients (no "For You") and not involved
	// (see Involved).
	AudienceUsers []string
}

// RecipientUserID is displayHeadlineMessageTemplateData.recipientUser, sent
// either as a user id or as a User object ("" when absent).
func (n Notification) RecipientUserID() string {
	if len(n.HeadlineData) == 0 {
		return ""
	}
	var data struct {
		RecipientUser json.RawMessage `json:"recipientUser"`
	}
	if json.Unmarshal(n.HeadlineData, &data) != nil || len(data.RecipientUser) == 0 {
		return ""
	}
	var id string
	if json.Unmarshal(data.RecipientUser, &id) == nil {
		return id
	}
	var user struct {
		UserID string `json:"userId"`
	}
	_ = json.Unmarshal(data.RecipientUser, &user)
	return user.UserID
}

// Recipients are the users the notification is directly for: notifyUsers
// and the recipientUser of the headline (unless withheld). Sorted, without
// duplicates.
func (n Notification) Recipients() []string {
	ids := make([]string, 0, len(n.NotifyUsers)+1)
	for _, u := range n.NotifyUsers {
		ids = append(ids, u.ID)
	}
	if r := n.RecipientUserID(); r != "" && r != n.WithheldRecipient {
		ids = append(ids, r)
	}
	return sortedSet(ids)
}

// Audience is who sees the notification on the "all" tab: the recipients,
// plus Everyone when it was sent to the whole organization, or, when that
// add verified permissions, the AudienceUsers instead.
func (n Notification) Audience() []string {
	ids := n.Recipients()
	switch {
	case n.NotifyAll && n.AudienceVerified:
		ids = sortedSet(append(ids, n.AudienceUsers...))
	case n.NotifyAll:
		ids = append([]string{Everyone}, ids...)
	}
	return ids
}

// AudienceOnly are the AudienceUsers who are not recipients: on their
// "all" tab only. Sorted.
func (n Notification) AudienceOnly() []string {
	recipients := n.Recipients()
	return slices.DeleteFunc(sortedSet(n.AudienceUsers), func(id string) bool { return slices.Contains(recipients, id) })
}

// Involved is who the notification concerns in a user's data export: the
// recipients, the user who acted and a withheld recipient (the headline
// data names them). AudienceUsers are not: the caller did not name them
// (it sent the whole organization) and the notification says nothing
// about them, as for Everyone's; their erasure takes them out of the
// audience instead of deleting the notification for everyone.
func (n Notification) Involved() []string {
	return sortedSet(append(n.Recipients(), n.ActionUser.ID, n.WithheldRecipient))
}

// IsReadBy reports whether userID marked the notification read.
func (n Notification) IsReadBy(userID string) bool {
	return slices.Contains(n.ReadBy, userID)
}

// InForYou reports whether the notification is on userID's "For You" tab:
// userID is a direct recipient and has not read it, or asked to keep it
// once read.
func (n Notification) InForYou(userID string) bool {
	if !slices.Contains(n.Recipients(), userID) {
		return false
	}
	return !n.IsReadBy(userID) || slices.Contains(n.PersistReadFor, userID)
}

// sortedSet sorts ids and drops duplicates and blanks.
func sortedSet(ids []string) []string {
	out := slices.DeleteFunc(slices.Clone(ids), func(s string) bool { return s == "" })
	slices.Sort(out)
	return slices.Compact(out)
}
