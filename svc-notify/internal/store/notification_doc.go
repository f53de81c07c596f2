package store

import (
	"encoding/json"
	"errors"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/svc-notify/internal/notify"
)

// notificationDoc is a stored notification, keyed by notificationKey.
// Client objects are BSON (see fromJSON); visibleTo is derived for the
// list queries (notify.Notification.Audience) and feedRefs names the
// notification's live user-feed entries.
type notificationDoc struct {
	Key              string    `bson:"_id"`
	WorkspaceID      string    `bson:"workspaceId"`
	OrganizationID   string    `bson:"organizationId"`
	DocumentID       string    `bson:"documentId"`
	NotificationID   string    `bson:"id"`
	LocationID       string    `bson:"locationId,omitempty"`
	Location         any       `bson:"location,omitempty"`
	ActionUserID     string    `bson:"actionUserId"`
	ActionUser       any       `bson:"actionUser"`
	Source           string    `bson:"notificationSource,omitempty"`
	SourceData       any       `bson:"notificationSourceData,omitempty"`
	HeadlineTemplate string    `bson:"displayHeadlineMessageTemplate"`
	HeadlineData     any       `bson:"displayHeadlineMessageTemplateData,omitempty"`
	BodyMessage      string    `bson:"displayBodyMessage"`
	NotifyUsers      bson.A    `bson:"notifyUsers"`
	NotifyUserIDs    []string  `bson:"notifyUserIds"`
	NotifyAll        bool      `bson:"notifyAll"`
	Context          any       `bson:"context,omitempty"`
	ResolverUsed     bool      `bson:"isNotificationResolverUsed,omitempty"`
	ReadBy           []string  `bson:"readByUserIds"`
	PersistReadFor   []string  `bson:"persistReadForUsers"`
	VisibleTo        []string  `bson:"visibleTo"`
	FeedRefs         []feedRef `bson:"feedRefs"`
	Timestamp        int64     `bson:"timestamp"`
	Rev              string    `bson:"rev"`
	// WithheldRecipient: see notify.Notification; absent on most.
	WithheldRecipient string `bson:"withheldRecipient,omitempty"`
	// AudienceVerified, AudienceUsers: see notify.Notification; set only
	// on a notifyAll add that verified permissions. visibleTo lists the
	// users, so by_audience serves their "all" tab as a recipient's;
	// audienceOnly (derived, notify.Notification.AudienceOnly) names those
	// of them who are no recipient, so a "For You" or recipient query,
	// which reads visibleTo too, leaves them out.
	AudienceVerified bool     `bson:"audienceVerified,omitempty"`
	AudienceUsers    []string `bson:"audienceUsers,omitempty"`
	AudienceOnly     []string `bson:"audienceOnly,omitempty"`
}

func newNotificationDoc(ws string, n notify.Notification) (notificationDoc, error) {
	d := notificationDoc{
		Key: notificationKey(ws, n.OrganizationID, n.ID), WorkspaceID: ws, OrganizationID: n.OrganizationID,
		DocumentID: n.DocumentID, NotificationID: n.ID, LocationID: n.LocationID,
		ActionUserID: n.ActionUser.ID, Source: n.Source,
		HeadlineTemplate: n.HeadlineTemplate, BodyMessage: n.BodyMessage,
		NotifyUsers: make(bson.A, 0, len(n.NotifyUsers)), NotifyUserIDs: make([]string, 0, len(n.NotifyUsers)),
		NotifyAll: n.NotifyAll, ResolverUsed: n.ResolverUsed,
		ReadBy: orEmpty(n.ReadBy), PersistReadFor: orEmpty(n.PersistReadFor),
		VisibleTo: n.Audience(), FeedRefs: []feedRef{},
		Timestamp: n.Timestamp, Rev: n.Rev, WithheldRecipient: n.WithheldRecipient,
		AudienceVerified: n.AudienceVerified, AudienceUsers: n.AudienceUsers, AudienceOnly: n.AudienceOnly(),
	}
	var errs []error
	convert := func(raw json.RawMessage) any {
		v, err := fromJSON(raw)
		errs = append(errs, err)
		return v
	}
	d.Location = convert(n.Location)
	d.ActionUser = convert(n.ActionUser.Raw)
	d.SourceData = convert(n.SourceData)
	d.HeadlineData = convert(n.HeadlineData)
	d.Context = convert(n.Context)
	for _, u := range n.NotifyUsers {
		d.NotifyUsers = append(d.NotifyUsers, convert(u.Raw))
		d.NotifyUserIDs = append(d.NotifyUserIDs, u.ID)
	}
	return d, errors.Join(errs...)
}

func (d notificationDoc) domain() (notify.Notification, error) {
	var errs []error
	convert := func(v any) json.RawMessage {
		raw, err := toJSON(v)
		errs = append(errs, err)
		return raw
	}
	n := notify.Notification{
		OrganizationID: d.OrganizationID, DocumentID: d.DocumentID, ID: d.NotificationID,
		LocationID: d.LocationID, Location: convert(d.Location),
		ActionUser: notify.User{ID: d.ActionUserID, Raw: convert(d.ActionUser)},
		Source:     d.Source, SourceData: convert(d.SourceData),
		HeadlineTemplate: d.HeadlineTemplate, HeadlineData: convert(d.HeadlineData),
		BodyMessage: d.BodyMessage, NotifyAll: d.NotifyAll, Context: convert(d.Context),
		ResolverUsed: d.ResolverUsed, ReadBy: d.ReadBy, PersistReadFor: d.PersistReadFor,
		Timestamp: d.Timestamp, Rev: d.Rev, WithheldRecipient: d.WithheldRecipient,
		AudienceVerified: d.AudienceVerified, AudienceUsers: d.AudienceUsers,
	}
	if len(d.NotifyUsers) != len(d.NotifyUserIDs) {
		errs = append(errs, errors.New("notifyUsers and notifyUserIds differ in length"))
	} else {
		for i, u := range d.NotifyUsers {
			n.NotifyUsers = append(n.NotifyUsers, notify.User{ID: d.NotifyUserIDs[i], Raw: convert(u)})
		}
	}
	return n, errors.Join(errs...)
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
