package store

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/svc-notify/internal/notify"
)

// SaveNotification implements notify.NotificationStore. The notification
// goes to the head of the feeds of users it is new to; a user it concerned
// already keeps the entry it has (so the same add again writes no feed),
// and users it no longer concerns lose theirs.
func (m *Mongo) SaveNotification(ctx context.Context, ws string, n notify.Notification) error {
	key := notificationKey(ws, n.OrganizationID, n.ID)
	defer m.notificationLocks.Lock(key)()
	old, err := m.findByKey(ctx, key)
	if err != nil {
		return err
	}
	doc, err := newNotificationDoc(ws, n)
	if err != nil {
		return err
	}
	var oldRefs []feedRef
	if old != nil {
		oldRefs = old.FeedRefs
	}
	kept, dropped, joined := splitRefs(oldRefs, n.Involved())
	// Feed entries first, the notification last: an entry counts only once
	// its notification lists it, so a failure in between shows nothing,
	// and the retry (same id) writes fresh entries and the notification.
	added, err := m.appendToFeeds(ctx, ws, n.OrganizationID, n.ID, joined)
	if err != nil {
		return err
	}
	if m.failAfterFeeds != nil {
		return m.failAfterFeeds
	}
	doc.FeedRefs = append(append(doc.FeedRefs, kept...), added...)
	err = upsertRetry(func() error {
		_, err := m.notifications.ReplaceOne(ctx, bson.D{{Key: "_id", Value: key}}, doc, options.Replace().SetUpsert(true))
		return err
	})
	if err != nil {
		return fmt.Errorf("save notification: %w", err)
	}
	return m.removeFromFeeds(ctx, ws, n.OrganizationID, dropped)
}

// UpdateNotification implements notify.NotificationStore. Users who became
// involved get a feed entry; those who are no longer lose theirs.
func (m *Mongo) UpdateNotification(ctx context.Context, ws string, n notify.Notification, rev string) error {
	key := notificationKey(ws, n.OrganizationID, n.ID)
	defer m.notificationLocks.Lock(key)()
	cur, err := m.findByKey(ctx, key)
	if err != nil {
		return err
	}
	if cur == nil || cur.Rev != rev {
		return notify.ErrConflict
	}
	doc, err := newNotificationDoc(ws, n)
	if err != nil {
		return err
	}
	kept, dropped, joined := splitRefs(cur.FeedRefs, n.Involved())
	added, err := m.appendToFeeds(ctx, ws, n.OrganizationID, n.ID, joined)
	if err != nil {
		return err
	}
	set := bson.D{
		{Key: "actionUserId", Value: doc.ActionUserID}, {Key: "actionUser", Value: doc.ActionUser},
		{Key: "displayHeadlineMessageTemplate", Value: doc.HeadlineTemplate},
		{Key: "displayHeadlineMessageTemplateData", Value: doc.HeadlineData},
		{Key: "displayBodyMessage", Value: doc.BodyMessage},
		{Key: "notificationSourceData", Value: doc.SourceData},
		{Key: "readByUserIds", Value: doc.ReadBy}, {Key: "persistReadForUsers", Value: doc.PersistReadFor},
		{Key: "visibleTo", Value: doc.VisibleTo}, {Key: "feedRefs", Value: slices.Concat(kept, added)},
		{Key: "rev", Value: doc.Rev},
	}
	if doc.AudienceVerified {
		// Who is a recipient may have changed (recipientUser).
		set = append(set, bson.E{Key: "audienceOnly", Value: orEmpty(doc.AudienceOnly)})
	}
	// The revision in the filter makes the write conditional across
	// processes (MongoDB); the lock does within this one (FerretDB).
	res, err := m.notifications.UpdateOne(ctx, bson.D{{Key: "_id", Value: key}, {Key: "rev", Value: rev}}, bson.D{{Key: "$set", Value: set}})
	if err != nil {
		return fmt.Errorf("update notification: %w", err)
	}
	if res.MatchedCount == 0 {
		return errors.Join(notify.ErrConflict, m.removeFromFeeds(ctx, ws, n.OrganizationID, added))
	}
	return m.removeFromFeeds(ctx, ws, n.OrganizationID, dropped)
}

// MarkRead implements notify.NotificationStore with one atomic write by
// key, so the common update (marking read) is as cheap as an add.
func (m *Mongo) MarkRead(ctx context.Context, ws, orgID, id string, readers []string, persist bool, newRev string) (notify.Notification, error) {
	key := notificationKey(ws, orgID, id)
	defer m.notificationLocks.Lock(key)()
	add := bson.D{{Key: "readByUserIds", Value: bson.D{{Key: "$each", Value: readers}}}}
	if persist {
		add = append(add, bson.E{Key: "persistReadForUsers", Value: bson.D{{Key: "$each", Value: readers}}})
	}
	var d notificationDoc
	err := m.notifications.FindOneAndUpdate(ctx, bson.D{{Key: "_id", Value: key}},
		bson.D{{Key: "$addToSet", Value: add}, {Key: "$set", Value: bson.D{{Key: "rev", Value: newRev}}}},
		options.FindOneAndUpdate().SetReturnDocument(options.After)).Decode(&d)
	if mongodb.IsNotFound(err) {
		return notify.Notification{}, notify.ErrConflict
	}
	if err != nil {
		return notify.Notification{}, fmt.Errorf("mark notification read: %w", err)
	}
	return d.domain()
}

// splitRefs sorts a notification's feed entries into those of users still
// involved and those of users who are not, and lists the involved users
// without an entry.
func splitRefs(refs []feedRef, involved []string) (kept, dropped []feedRef, joined []string) {
	has := map[string]bool{}
	for _, r := range refs {
		if slices.Contains(involved, r.User) {
			kept = append(kept, r)
			has[r.User] = true
		} else {
			dropped = append(dropped, r)
		}
	}
	for _, u := range involved {
		if !has[u] {
			joined = append(joined, u)
		}
	}
	return kept, dropped, joined
}

// DeleteNotifications implements notify.NotificationStore.
func (m *Mongo) DeleteNotifications(ctx context.Context, ws, orgID string, ids []string) error {
	for _, id := range ids {
		if err := m.deleteNotification(ctx, ws, orgID, id); err != nil {
			return err
		}
	}
	return nil
}

// deleteNotification deletes one notification (by key: see keys.go) and
// its feed entries.
func (m *Mongo) deleteNotification(ctx context.Context, ws, orgID, id string) error {
	key := notificationKey(ws, orgID, id)
	defer m.notificationLocks.Lock(key)()
	var d notificationDoc
	err := m.notifications.FindOneAndDelete(ctx, bson.D{{Key: "_id", Value: key}}).Decode(&d)
	if mongodb.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("delete notification: %w", err)
	}
	return m.removeFromFeeds(ctx, ws, orgID, d.FeedRefs)
}

// MatchNotifications implements notify.NotificationStore. With ids it
// reads those by key and filters here, which costs the same however many
// notifications the organization has.
func (m *Mongo) MatchNotifications(ctx context.Context, ws string, f notify.Filter) ([]notify.Notification, error) {
	if len(f.IDs) == 0 {
		return m.findNotifications(ctx, matchFilter(ws, f, nil), options.Find().SetSort(timeOrder(false)))
	}
	keys := make([]string, 0, len(f.IDs))
	for _, id := range f.IDs {
		if key := notificationKey(ws, f.OrganizationID, id); !slices.Contains(keys, key) {
			keys = append(keys, key)
		}
	}
	docs, err := m.findByKeys(ctx, keys)
	if err != nil {
		return nil, err
	}
	out := make([]notify.Notification, 0, len(docs))
	for _, d := range docs {
		if d == nil {
			continue
		}
		n, err := d.domain()
		if err != nil {
			return nil, fmt.Errorf("notification %s: %w", d.NotificationID, err)
		}
		if f.Matches(n) {
			out = append(out, n)
		}
	}
	return out, nil
}

// ListNotifications implements notify.NotificationStore.
func (m *Mongo) ListNotifications(ctx context.Context, ws string, q notify.ListQuery) ([]notify.Notification, error) {
	opts := options.Find().SetSort(timeOrder(q.Ascending)).SetLimit(int64(q.Limit))
	return m.findNotifications(ctx, listFilter(ws, q), opts)
}

func (m *Mongo) findNotifications(ctx context.Context, filter bson.D, opts *options.FindOptionsBuilder) ([]notify.Notification, error) {
	cur, err := m.notifications.Find(ctx, filter, opts)
	if err != nil {
		return nil, fmt.Errorf("find notifications: %w", err)
	}
	var docs []notificationDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("read notifications: %w", err)
	}
	out := make([]notify.Notification, 0, len(docs))
	for _, d := range docs {
		n, err := d.domain()
		if err != nil {
			return nil, fmt.Errorf("notification %s: %w", d.NotificationID, err)
		}
		out = append(out, n)
	}
	return out, nil
}

// findByKey reads one notification by key; nil when there is none.
func (m *Mongo) findByKey(ctx context.Context, key string) (*notificationDoc, error) {
	var d notificationDoc
	err := m.notifications.FindOne(ctx, bson.D{{Key: "_id", Value: key}}).Decode(&d)
	if mongodb.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read notification: %w", err)
	}
	return &d, nil
}

// findByKeys reads notifications by key, in the order of keys; missing
// ones are nil (exact _id reads, mongodb.FindByIDs).
func (m *Mongo) findByKeys(ctx context.Context, keys []string) ([]*notificationDoc, error) {
	found, err := mongodb.FindByIDs[notificationDoc](ctx, m.notifications, keys, nil, m.pointReads)
	if err != nil {
		return nil, fmt.Errorf("read notifications: %w", err)
	}
	byKey := make(map[string]*notificationDoc, len(found))
	for i := range found {
		byKey[found[i].Key] = &found[i]
	}
	docs := make([]*notificationDoc, len(keys))
	for i, key := range keys {
		docs[i] = byKey[key]
	}
	return docs, nil
}
