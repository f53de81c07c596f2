package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/svc-notify/internal/notify"
)

// The user feed lists, per (workspace, organization, user), the
// notifications the user is involved in, in the order they became the
// user's (re-adding a notification keeps its place). It is what the
// user-data export pages, using only _id lookups:
//
//   - a head document per user holds the last sequence number handed out
//     ($inc, so every entry gets its own; a new feed is inserted with 1,
//     see startFeeds);
//   - entry n lives in page document n/feedPageSize, as "entries.<n>" →
//     notification id;
//   - a notification lists its live entries (feedRefs). An entry counts
//     only while the notification it names still lists it, so an entry left
//     behind by a crash, a change of recipients or a lost race is skipped, never shown.
const (
	feedHeadsColl = "user_feed_heads"
	feedPagesColl = "user_feed_pages"
	feedPageSize  = 100
)

// feedRef is an entry of a user's feed, as its notification lists it.
type feedRef struct {
	User string `bson:"u"`
	Seq  int64  `bson:"s"`
}

type feedHeadDoc struct {
	ID             string `bson:"_id"`
	WorkspaceID    string `bson:"workspaceId"`
	OrganizationID string `bson:"organizationId"`
	UserID         string `bson:"userId"`
	Seq            int64  `bson:"seq"`
}

type feedPageDoc struct {
	Entries map[string]string `bson:"entries"` // sequence number → notification id
}

func feedHeadKey(ws, orgID, userID string) string { return docKey(ws, orgID, userID) }

func feedPageKey(ws, orgID, userID string, seq int64) string {
	return docKey(ws, orgID, userID, strconv.FormatInt(seq/feedPageSize, 10))
}

// appendToFeeds adds notification id at the head of each user's feed.
//
// Users without a feed get one in bulk (startFeeds), users with one are
// appended to in bulk (appendToExisting): a few store commands per
// feedChunk users either way. The entries count only once the
// notification lists them, so a failure part way leaves nothing visible.
func (m *Mongo) appendToFeeds(ctx context.Context, ws, orgID, id string, users []string) ([]feedRef, error) {
	started, existing, err := m.startFeeds(ctx, ws, orgID, id, users)
	if err != nil {
		return nil, err
	}
	refs, err := m.appendToExisting(ctx, ws, orgID, id, existing)
	if err != nil {
		return nil, err
	}
	return append(started, refs...), nil
}

// eachFeed runs write(i) for i in [0, n), feedWriters at a time: each
// user's feed is its own documents, and one after another 1,000 of them
// took seconds.
func eachFeed(n int, write func(i int) error) error {
	errs := make([]error, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(feedWriters, n) {
		wg.Go(func() {
			for i := range next {
				errs[i] = write(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return errors.Join(errs...)
}

// feedWriters is how many feeds one notification removes its entries
// from, or chunks of feeds it appends to (appendToExisting), at once.
const feedWriters = 8

// appendToFeed takes the user's next sequence number and files id under
// it. The user's lock keeps FerretDB from losing one of two concurrent
// writes to the same page (MongoDB needs no lock: $inc and $set of
// different fields are atomic there).
func (m *Mongo) appendToFeed(ctx context.Context, ws, orgID, userID, id string) (int64, error) {
	key := feedHeadKey(ws, orgID, userID)
	defer m.feedLocks.Lock(key)()
	owner := bson.D{{Key: "workspaceId", Value: ws}, {Key: "organizationId", Value: orgID}, {Key: "userId", Value: userID}}
	var head feedHeadDoc
	err := upsertRetry(func() error {
		return m.feedHeads.FindOneAndUpdate(ctx, bson.D{{Key: "_id", Value: key}},
			bson.D{{Key: "$inc", Value: bson.D{{Key: "seq", Value: int64(1)}}}, {Key: "$setOnInsert", Value: owner}},
			options.FindOneAndUpdate().SetUpsert(true).SetReturnDocument(options.After)).Decode(&head)
	})
	if err != nil {
		return 0, err
	}
	return head.Seq, m.writeFeedEntry(ctx, ws, orgID, userID, head.Seq, id)
}

// removeFromFeeds drops entries from their pages, feedWriters at a time.
// An entry left behind (a failure here, a crash) is skipped by readers
// anyway.
func (m *Mongo) removeFromFeeds(ctx context.Context, ws, orgID string, refs []feedRef) error {
	err := eachFeed(len(refs), func(i int) error {
		r := refs[i]
		defer m.feedLocks.Lock(feedHeadKey(ws, orgID, r.User))()
		_, err := m.feedPages.UpdateOne(ctx, bson.D{{Key: "_id", Value: feedPageKey(ws, orgID, r.User, r.Seq)}},
			bson.D{{Key: "$unset", Value: bson.D{{Key: "entries." + strconv.FormatInt(r.Seq, 10), Value: ""}}}})
		return err
	})
	if err != nil {
		return fmt.Errorf("remove feed entry: %w", err)
	}
	return nil
}

// feedEntry is a position in a user's feed.
type feedEntry struct {
	seq int64
	id  string
}

// UserFeed implements notify.NotificationStore: it walks the feed's pages
// down from before (exclusive; 0 is the head) and resolves entries until
// it has limit notifications and knows whether more follow.
func (m *Mongo) UserFeed(ctx context.Context, ws, orgID, userID string, before int64, limit int) ([]notify.Notification, int64, error) {
	top, err := m.feedTop(ctx, ws, orgID, userID, before)
	if err != nil || top == 0 {
		return []notify.Notification{}, 0, err
	}
	var found []notify.Notification
	var seqs []int64
	for page := top / feedPageSize; page >= 0 && len(found) <= limit; page-- {
		entries, err := m.feedPage(ctx, ws, orgID, userID, page*feedPageSize, top)
		if err != nil {
			return nil, 0, err
		}
		for len(entries) > 0 && len(found) <= limit {
			batch := entries[:min(len(entries), limit+1-len(found))]
			entries = entries[len(batch):]
			ns, ok, err := m.resolveEntries(ctx, ws, orgID, userID, batch)
			if err != nil {
				return nil, 0, err
			}
			for i := range batch {
				if ok[i] {
					found, seqs = append(found, ns[i]), append(seqs, batch[i].seq)
				}
			}
		}
	}
	if len(found) <= limit {
		return found, 0, nil
	}
	return found[:limit], seqs[limit-1], nil
}

// feedTop is the highest sequence number to read: below before, or the
// head's when before is 0.
func (m *Mongo) feedTop(ctx context.Context, ws, orgID, userID string, before int64) (int64, error) {
	if before > 0 {
		return before - 1, nil
	}
	var head feedHeadDoc
	err := m.feedHeads.FindOne(ctx, bson.D{{Key: "_id", Value: feedHeadKey(ws, orgID, userID)}}).Decode(&head)
	if mongodb.IsNotFound(err) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read feed head: %w", err)
	}
	return head.Seq, nil
}

// feedPage returns the entries of the page starting at from with sequence
// numbers up to top, newest first.
func (m *Mongo) feedPage(ctx context.Context, ws, orgID, userID string, from, top int64) ([]feedEntry, error) {
	var page feedPageDoc
	err := m.feedPages.FindOne(ctx, bson.D{{Key: "_id", Value: feedPageKey(ws, orgID, userID, from)}}).Decode(&page)
	if mongodb.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read feed page: %w", err)
	}
	entries := make([]feedEntry, 0, len(page.Entries))
	for k, id := range page.Entries {
		seq, err := strconv.ParseInt(k, 10, 64)
		if err == nil && seq <= top {
			entries = append(entries, feedEntry{seq: seq, id: id})
		}
	}
	slices.SortFunc(entries, func(a, b feedEntry) int { return cmp.Compare(b.seq, a.seq) })
	return entries, nil
}

// resolveEntries reads the notifications of entries; ok[i] is false for an
// entry its notification does not list (deleted, re-added, no longer the
// user's).
func (m *Mongo) resolveEntries(ctx context.Context, ws, orgID, userID string, entries []feedEntry) ([]notify.Notification, []bool, error) {
	keys := make([]string, len(entries))
	for i, e := range entries {
		keys[i] = notificationKey(ws, orgID, e.id)
	}
	docs, err := m.findByKeys(ctx, keys)
	if err != nil {
		return nil, nil, err
	}
	ns := make([]notify.Notification, len(entries))
	ok := make([]bool, len(entries))
	for i, d := range docs {
		if d == nil || !slices.Contains(d.FeedRefs, feedRef{User: userID, Seq: entries[i].seq}) {
			continue
		}
		if ns[i], err = d.domain(); err != nil {
			return nil, nil, fmt.Errorf("notification %s: %w", d.NotificationID, err)
		}
		ok[i] = true
	}
	return ns, ok, nil
}
