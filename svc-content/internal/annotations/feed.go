package annotations

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
)

// The user feed lists, per (workspace, organization, user, kind), the
// comments the user wrote, is mentioned in or is the assignee of, and the
// reactions the user made; users/data/get pages through it.
//
// Every read and write is by exact _id. FerretDB (the embedded store) pushes
// only an exact {_id: v} filter down to SQLite and scans the whole
// collection for anything else, indexes or not; so a keyset range over an
// index would cost as much as the collection holds. Here a page costs the
// same whatever the user (or anyone else) has:
//
//   - head  "h[ws,org,user,kind]"      {seq}: the last sequence number given out
//   - bucket "b[ws,org,user,kind,n]"   {entries: [{seq, a, k}]}: entries with
//     seq in [n*feedBucket, (n+1)*feedBucket), a = annotationId, k = row key
//   - row   "r[ws,annotationId,k]"     {seq}: where a row's entry lives
//
// Entries are pointers: a page renders from the annotations (read by _id)
// and skips entries they no longer back, so a stale entry is never shown.
const (
	kindComment  = "comment"
	kindReaction = "reaction"
	feedBucket   = 128
)

// feedRow is one (user, comment) or (user, reaction) membership.
type feedRow struct {
	kind, item, user string // item: commentId in decimal, or reactionId
}

// key is the row's key inside its annotation (stored in IndexedRows).
func (r feedRow) key() string { return jsonKey(r.kind, r.item, r.user) }

func parseFeedRow(key string) (feedRow, error) {
	var parts []string
	if err := json.Unmarshal([]byte(key), &parts); err != nil || len(parts) != 3 {
		return feedRow{}, fmt.Errorf("bad feed row key %q", key)
	}
	return feedRow{parts[0], parts[1], parts[2]}, nil
}

func jsonKey(parts ...any) string {
	b, _ := json.Marshal(parts)
	return string(b)
}

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

// feedRows lists the rows annotation a must have in the feed.
func feedRows(a *Annotation) []string {
	var keys []string
	add := func(r feedRow) {
		if k := r.key(); !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	for _, c := range a.Comments {
		for _, uid := range a.involvedIn(c) {
			add(feedRow{kindComment, strconv.FormatInt(c.CommentID, 10), uid})
		}
	}
	for _, r := range a.Reactions {
		for _, fu := range r.FromUsers {
			add(feedRow{kindReaction, r.ReactionID, userID(fu.From)})
		}
	}
	return keys
}

// without returns the keys of list that are not in other.
func without(list, other []string) []string {
	var out []string
	for _, k := range list {
		if !slices.Contains(other, k) {
			out = append(out, k)
		}
	}
	return out
}

// feedAdd puts rows (keys of annotation a) into their users' feeds. It is
// idempotent: a row that already has a sequence number keeps it and its
// entry is re-added as a set member. Callers run it before the annotation
// write that records the rows, so a failed write leaves at most entries the
// annotation does not back, which pages skip.
func (s *Service) feedAdd(ctx context.Context, a *Annotation, keys []string) error {
	rows := make([]feedItem, len(keys))
	for i, k := range keys {
		rows[i] = feedItem{a, k}
	}
	return s.feedAddRows(ctx, rows)
}

// feedAddAll is feedAdd of the rows of many new annotations, batched
// across them: one insert of the heads (then an $inc of each that exists),
// one of the row documents, one of the buckets of the feeds it starts
// (then an update of each other bucket).
func (s *Service) feedAddAll(ctx context.Context, list []newAnnotation) error {
	var rows []feedItem
	for _, a := range list {
		for _, k := range a.IndexedRows {
			rows = append(rows, feedItem{a.Annotation, k})
		}
	}
	return s.feedAddRows(ctx, rows)
}

// feedItem is one row key of an annotation.
type feedItem struct {
	a   *Annotation
	key string
}

func (s *Service) feedAddRows(ctx context.Context, rows []feedItem) error {
	if len(rows) == 0 {
		return nil
	}
	seqs, started, err := s.allocateSeqs(ctx, rows)
	if err != nil {
		return err
	}
	byBucket := map[string][]any{}
	var order []string
	fresh := map[string]bool{}
	for i, row := range rows {
		r, _ := parseFeedRow(row.key)
		id := bucketID(row.a.WorkspaceID, row.a.OrganizationID, r.user, r.kind, seqs[i]/feedBucket)
		if byBucket[id] == nil {
			order = append(order, id)
			fresh[id] = started[headID(row.a.WorkspaceID, row.a.OrganizationID, r.user, r.kind)]
		}
		byBucket[id] = append(byBucket[id], feedEntry(seqs[i], row.a.AnnotationID, row.key))
	}
	return s.fillBuckets(ctx, order, byBucket, fresh)
}

// fillBuckets adds entries to their buckets. The buckets of feeds this
// step started are new (heads are never deleted, and a bucket is only
// written after its head), so they go in one insert; any other bucket, or
// one the insert finds taken after all, gets its own $addToSet.
func (s *Service) fillBuckets(ctx context.Context, ids []string, entries map[string][]any, fresh map[string]bool) error {
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
	unlock := s.feedLocks.lockAll(create)
	taken, err := insertNew(ctx, s.feed, docs)
	unlock()
	if err != nil {
		return fmt.Errorf("feed buckets: %w", err)
	}
	for _, i := range taken {
		update = append(update, create[i])
	}
	for _, id := range update {
		unlock := s.feedLocks.lock(id)
		_, err := s.feed.UpdateOne(ctx, bson.M{"_id": id},
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
func (s *Service) allocateSeqs(ctx context.Context, rows []feedItem) (seqs []int64, started map[string]bool, err error) {
	groups := map[string][]int{} // head id → indexes into rows
	var heads []string
	for i, row := range rows {
		r, err := parseFeedRow(row.key)
		if err != nil {
			return nil, nil, err
		}
		h := headID(row.a.WorkspaceID, row.a.OrganizationID, r.user, r.kind)
		if groups[h] == nil {
			heads = append(heads, h)
		}
		groups[h] = append(groups[h], i)
	}
	counts := make([]int64, len(heads))
	for j, h := range heads {
		counts[j] = int64(len(groups[h]))
	}
	lasts, started, err := s.stepHeads(ctx, heads, counts)
	if err != nil {
		return nil, nil, err
	}
	seqs = make([]int64, len(rows))
	for j, h := range heads {
		for k, i := range groups[h] {
			seqs[i] = lasts[j] - counts[j] + int64(k) + 1
		}
	}
	if err := s.keepRowSeqs(ctx, rows, seqs); err != nil {
		return nil, nil, err
	}
	return seqs, started, nil
}

// stepHeads adds counts[j] to head heads[j] and returns each new last
// sequence number, and which heads it created. One head is one $inc
// (upserting); several are first inserted with one command, so a request
// that starts many feeds (a new author on every comment) costs one insert
// rather than a step per feed, and only the heads that exist get an $inc.
func (s *Service) stepHeads(ctx context.Context, heads []string, counts []int64) ([]int64, map[string]bool, error) {
	lasts := make([]int64, len(heads))
	started := map[string]bool{}
	existing := []int{0}
	if len(heads) > 1 {
		docs := make([]any, len(heads))
		for j, h := range heads {
			docs[j] = bson.D{{Key: "_id", Value: h}, {Key: "seq", Value: counts[j]}}
		}
		unlock := s.feedLocks.lockAll(heads)
		taken, err := insertNew(ctx, s.feed, docs)
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
		last, err := s.bumpHead(ctx, heads[j], counts[j])
		if err != nil {
			return nil, nil, err
		}
		lasts[j], started[heads[j]] = last, false
	}
	return lasts, started, nil
}

// keepRowSeqs inserts the row documents that record each row's sequence
// number; a row that has one already (a retry) keeps it, in seqs too.
func (s *Service) keepRowSeqs(ctx context.Context, rows []feedItem, seqs []int64) error {
	docs := make([]any, len(rows))
	for i, row := range rows {
		docs[i] = bson.M{"_id": rowDocID(row.a.WorkspaceID, row.a.AnnotationID, row.key), "seq": seqs[i]}
	}
	taken, err := insertNew(ctx, s.feedRows, docs)
	if err != nil {
		return fmt.Errorf("feed rows: %w", err)
	}
	for _, i := range taken {
		if seqs[i], err = s.rowSeq(ctx, docs[i].(bson.M)["_id"].(string)); err != nil {
			return err
		}
	}
	return nil
}

// insertNew inserts docs with one unordered insert and returns the indexes
// of those whose _id exists already; any other failure is an error.
func insertNew(ctx context.Context, coll *mongo.Collection, docs []any) ([]int, error) {
	if len(docs) == 0 {
		return nil, nil
	}
	_, err := coll.InsertMany(ctx, docs, options.InsertMany().SetOrdered(false))
	var bwe mongo.BulkWriteException
	if err != nil && (!errors.As(err, &bwe) || bwe.WriteConcernError != nil) {
		return nil, err
	}
	var taken []int
	for _, we := range bwe.WriteErrors {
		if !we.HasErrorCode(11000) { // only "already exists" is expected
			return nil, err
		}
		taken = append(taken, we.Index)
	}
	return taken, nil
}

// bumpHead adds n to a feed head and returns the new last sequence number.
func (s *Service) bumpHead(ctx context.Context, id string, n int64) (int64, error) {
	defer s.feedLocks.lock(id)()
	var head struct {
		Seq int64 `bson:"seq"`
	}
	err := s.feed.FindOneAndUpdate(ctx, bson.M{"_id": id}, bson.M{"$inc": bson.M{"seq": n}},
		options.FindOneAndUpdate().SetUpsert(true).SetReturnDocument(options.After)).Decode(&head)
	if err != nil {
		return 0, fmt.Errorf("feed head: %w", err)
	}
	return head.Seq, nil
}

// rowSeq is the sequence number of a row document (0 when it has none).
func (s *Service) rowSeq(ctx context.Context, id string) (int64, error) {
	var row struct {
		Seq int64 `bson:"seq"`
	}
	err := s.feedRows.FindOne(ctx, bson.M{"_id": id}).Decode(&row)
	if mongodb.IsNotFound(err) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("feed row: %w", err)
	}
	return row.Seq, nil
}

// feedRemove takes rows out of their feeds. A failure is logged: the write
// it follows is done, and a leftover entry is skipped by every page.
func (s *Service) feedRemove(ctx context.Context, a *Annotation, keys []string) {
	for _, key := range keys {
		if err := s.feedRemoveOne(ctx, a, key); err != nil {
			s.logger.ErrorContext(ctx, "annotations: feed cleanup failed", "annotationId", a.AnnotationID, "error", err)
			return
		}
	}
}

func (s *Service) feedRemoveOne(ctx context.Context, a *Annotation, key string) error {
	r, err := parseFeedRow(key)
	if err != nil {
		return err
	}
	rowID := rowDocID(a.WorkspaceID, a.AnnotationID, key)
	seq, err := s.rowSeq(ctx, rowID)
	if err != nil || seq == 0 {
		return err
	}
	id := bucketID(a.WorkspaceID, a.OrganizationID, r.user, r.kind, seq/feedBucket)
	unlock := s.feedLocks.lock(id)
	_, err = s.feed.UpdateOne(ctx, bson.M{"_id": id}, bson.M{"$pull": bson.M{"entries": feedEntry(seq, a.AnnotationID, key)}})
	unlock()
	if err != nil {
		return fmt.Errorf("feed bucket: %w", err)
	}
	if _, err := s.feedRows.DeleteOne(ctx, bson.M{"_id": rowID}); err != nil {
		return fmt.Errorf("feed row: %w", err)
	}
	return nil
}
