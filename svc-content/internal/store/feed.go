package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/keylock"
	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/svc-content/internal/annotations"
)

// Feed keeps the user feeds (annotations.FeedStore) as documents read and written
// by exact _id only. FerretDB (the embedded store) pushes only an exact
// {_id: v} filter down to SQLite and scans the whole collection for
// anything else, indexes or not; so a keyset range over an index would
// cost as much as the collection holds. Here a page costs the same whatever
// the user (or anyone else) has:
//
//   - head  "h[ws,org,user,kind]"      {seq}: the last sequence number given out
//   - bucket "b[ws,org,user,kind,n]"   {entries: [{seq, a, k}]}: entries with
//     seq in [n*feedBucket, (n+1)*feedBucket), a = annotationId, k = row key
//   - row   "r[ws,annotationId,k]"     {seq}: where a row's entry lives
type Feed struct {
	heads *mongo.Collection // heads and buckets
	rows  *mongo.Collection
	locks keylock.Stripes // heads and buckets, never held with another lock of this store
}

// feedBucket is how many sequence numbers one bucket covers.
const feedBucket = 128

func headID(ws, org, user, kind string) string { return "h" + jsonKey(ws, org, user, kind) }
func bucketID(ws, org, user, kind string, n int64) string {
	return "b" + jsonKey(ws, org, user, kind, n)
}
func rowDocID(ws, annotationID, key string) string { return "r" + jsonKey(ws, annotationID, key) }

// feedEntry is one bucket entry; its fields are written in this order so
// $pull can match it exactly.
func feedEntry(seq int64, annotationID, key string) bson.D {
	return bson.D{{Key: "seq", Value: seq}, {Key: "a", Value: annotationID}, {Key: "k", Value: key}}
}

// Add puts rows into their users' feeds (see annotations.FeedStore).
func (m *Feed) Add(ctx context.Context, rows []annotations.FeedItem) error {
	if len(rows) == 0 {
		return nil
	}
	seqs, started, err := m.allocateSeqs(ctx, rows)
	if err != nil {
		return err
	}
	byBucket := map[string][]any{}
	var order []string
	fresh := map[string]bool{}
	for i, row := range rows {
		r, _ := annotations.ParseFeedRow(row.Key)
		id := bucketID(row.Annotation.WorkspaceID, row.Annotation.OrganizationID, r.User, r.Kind, seqs[i]/feedBucket)
		if byBucket[id] == nil {
			order = append(order, id)
			fresh[id] = started[headID(row.Annotation.WorkspaceID, row.Annotation.OrganizationID, r.User, r.Kind)]
		}
		byBucket[id] = append(byBucket[id], feedEntry(seqs[i], row.Annotation.AnnotationID, row.Key))
	}
	return m.fillBuckets(ctx, order, byBucket, fresh)
}

// fillBuckets adds entries to their buckets. The buckets of feeds this
// step started are new (heads are never deleted, and a bucket is only
// written after its head), so they go in one insert; any other bucket, or
// one the insert finds taken after all, gets its own $addToSet.
func (m *Feed) fillBuckets(ctx context.Context, ids []string, entries map[string][]any, fresh map[string]bool) error {
	var update []string
	var create []string
	var docs []any
	for _, id := range ids {
		if fresh[id] {
			create = append(create, id)
			docs = append(docs, bson.D{{Key: "_id", Value: id}, {Key: "entries", Value: entries[id]}})
		} else {
			update = append(update, id)
		}
	}
	unlock := m.locks.LockAll(create)
	taken, err := insertNew(ctx, m.heads, docs)
	unlock()
	if err != nil {
		return fmt.Errorf("feed buckets: %w", err)
	}
	for _, i := range taken {
		update = append(update, create[i])
	}
	for _, id := range update {
		unlock := m.locks.Lock(id)
		_, err := m.heads.UpdateOne(ctx, bson.M{"_id": id},
			bson.M{"$addToSet": bson.M{"entries": bson.M{"$each": entries[id]}}}, options.UpdateOne().SetUpsert(true))
		unlock()
		if err != nil {
			return fmt.Errorf("feed bucket: %w", err)
		}
	}
	return nil
}

// allocateSeqs returns each row's sequence number: the one its row document
// holds, or a new one from its feed's head. started holds the heads this
// step created.
func (m *Feed) allocateSeqs(ctx context.Context, rows []annotations.FeedItem) (seqs []int64, started map[string]bool, err error) {
	groups := map[string][]int{} // head id → indexes into rows
	var heads []string
	for i, row := range rows {
		r, err := annotations.ParseFeedRow(row.Key)
		if err != nil {
			return nil, nil, err
		}
		h := headID(row.Annotation.WorkspaceID, row.Annotation.OrganizationID, r.User, r.Kind)
		if groups[h] == nil {
			heads = append(heads, h)
		}
		groups[h] = append(groups[h], i)
	}
	counts := make([]int64, len(heads))
	for j, h := range heads {
		counts[j] = int64(len(groups[h]))
	}
	lasts, started, err := m.stepHeads(ctx, heads, counts)
	if err != nil {
		return nil, nil, err
	}
	seqs = make([]int64, len(rows))
	for j, h := range heads {
		for k, i := range groups[h] {
			seqs[i] = lasts[j] - counts[j] + int64(k) + 1
		}
	}
	if err := m.keepRowSeqs(ctx, rows, seqs); err != nil {
		return nil, nil, err
	}
	return seqs, started, nil
}

// stepHeads adds counts[j] to head heads[j] and returns each new last
// sequence number, and which heads it created. One head is one $inc
// (upserting); several are first inserted with one command, so a request
// that starts many feeds (a new author on every comment) costs one insert
// rather than a step per feed, and only the heads that exist get an $inc.
func (m *Feed) stepHeads(ctx context.Context, heads []string, counts []int64) ([]int64, map[string]bool, error) {
	lasts := make([]int64, len(heads))
	started := map[string]bool{}
	existing := []int{0}
	if len(heads) > 1 {
		docs := make([]any, len(heads))
		for j, h := range heads {
			docs[j] = bson.D{{Key: "_id", Value: h}, {Key: "seq", Value: counts[j]}}
		}
		unlock := m.locks.LockAll(heads)
		taken, err := insertNew(ctx, m.heads, docs)
		unlock()
		if err != nil {
			return nil, nil, fmt.Errorf("feed heads: %w", err)
		}
		for j, h := range heads {
			lasts[j], started[h] = counts[j], true
		}
		existing = taken
	}
	for _, j := range existing {
		last, err := m.bumpHead(ctx, heads[j], counts[j])
		if err != nil {
			return nil, nil, err
		}
		lasts[j], started[heads[j]] = last, false
	}
	return lasts, started, nil
}

// keepRowSeqs inserts the row documents that record each row's sequence
// number; a row that has one already (a retry) keeps it, in seqs too.
func (m *Feed) keepRowSeqs(ctx context.Context, rows []annotations.FeedItem, seqs []int64) error {
	docs := make([]any, len(rows))
	for i, row := range rows {
		docs[i] = bson.M{"_id": rowDocID(row.Annotation.WorkspaceID, row.Annotation.AnnotationID, row.Key), "seq": seqs[i]}
	}
	taken, err := insertNew(ctx, m.rows, docs)
	if err != nil {
		return fmt.Errorf("feed rows: %w", err)
	}
	for _, i := range taken {
		if seqs[i], err = m.rowSeq(ctx, docs[i].(bson.M)["_id"].(string)); err != nil {
			return err
		}
	}
	return nil
}

// bumpHead adds n to a feed head and returns the new last sequence number.
func (m *Feed) bumpHead(ctx context.Context, id string, n int64) (int64, error) {
	defer m.locks.Lock(id)()
	var head struct {
		Seq int64 `bson:"seq"`
	}
	err := m.heads.FindOneAndUpdate(ctx, bson.M{"_id": id}, bson.M{"$inc": bson.M{"seq": n}},
		options.FindOneAndUpdate().SetUpsert(true).SetReturnDocument(options.After)).Decode(&head)
	if err != nil {
		return 0, fmt.Errorf("feed head: %w", err)
	}
	return head.Seq, nil
}

// rowSeq is the sequence number of a row document (0 when it has none).
func (m *Feed) rowSeq(ctx context.Context, id string) (int64, error) {
	var row struct {
		Seq int64 `bson:"seq"`
	}
	err := m.rows.FindOne(ctx, bson.M{"_id": id}).Decode(&row)
	if mongodb.IsNotFound(err) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("feed row: %w", err)
	}
	return row.Seq, nil
}

// Remove takes row key of annotation a out of its feed.
func (m *Feed) Remove(ctx context.Context, a *annotations.Annotation, key string) error {
	r, err := annotations.ParseFeedRow(key)
	if err != nil {
		return err
	}
	rowID := rowDocID(a.WorkspaceID, a.AnnotationID, key)
	seq, err := m.rowSeq(ctx, rowID)
	if err != nil || seq == 0 {
		return err
	}
	id := bucketID(a.WorkspaceID, a.OrganizationID, r.User, r.Kind, seq/feedBucket)
	unlock := m.locks.Lock(id)
	_, err = m.heads.UpdateOne(ctx, bson.M{"_id": id}, bson.M{"$pull": bson.M{"entries": feedEntry(seq, a.AnnotationID, key)}})
	unlock()
	if err != nil {
		return fmt.Errorf("feed bucket: %w", err)
	}
	if _, err := m.rows.DeleteOne(ctx, bson.M{"_id": rowID}); err != nil {
		return fmt.Errorf("feed row: %w", err)
	}
	return nil
}

// entryDoc is a bucket entry as a page reads it.
type entryDoc struct {
	Seq          int64  `bson:"seq"`
	AnnotationID string `bson:"a"`
	Key          string `bson:"k"`
}

// Page reads up to n entries after sequence number `after`, bucket by
// bucket (each an exact _id read), in sequence order.
func (m *Feed) Page(ctx context.Context, q annotations.UserDataQuery, kind string, after int64, n int) ([]annotations.FeedEntry, error) {
	var head struct {
		Seq int64 `bson:"seq"`
	}
	err := m.heads.FindOne(ctx, bson.M{"_id": headID(q.WorkspaceID, q.OrganizationID, q.UserID, kind)}).Decode(&head)
	if mongodb.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read feed head: %w", err)
	}
	var out []annotations.FeedEntry
	for b := (after + 1) / feedBucket; b*feedBucket <= head.Seq && len(out) < n; b++ {
		var bucket struct {
			Entries []entryDoc `bson:"entries"`
		}
		err := m.heads.FindOne(ctx, bson.M{"_id": bucketID(q.WorkspaceID, q.OrganizationID, q.UserID, kind, b)}).Decode(&bucket)
		if mongodb.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read feed bucket: %w", err)
		}
		slices.SortFunc(bucket.Entries, func(x, y entryDoc) int { return cmp.Compare(x.Seq, y.Seq) })
		for _, e := range bucket.Entries {
			if e.Seq > after && len(out) < n {
				out = append(out, annotations.FeedEntry(e))
			}
		}
	}
	return out, nil
}
