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
// across them: one head step per distinct feed, one insert of the row
// documents, one update per distinct bucket.
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
	seqs, err := s.allocateSeqs(ctx, rows)
	if err != nil {
		return err
	}
	byBucket := map[string][]any{}
	var order []string
	for i, row := range rows {
		r, _ := parseFeedRow(row.key)
		id := bucketID(row.a.WorkspaceID, row.a.OrganizationID, r.user, r.kind, seqs[i]/feedBucket)
		if byBucket[id] == nil {
			order = append(order, id)
		}
		byBucket[id] = append(byBucket[id], feedEntry(seqs[i], row.a.AnnotationID, row.key))
	}
	for _, id := range order {
		unlock := s.feedLocks.lock(id)
		_, err := s.feed.UpdateOne(ctx, bson.M{"_id": id},
			bson.M{"$addToSet": bson.M{"entries": bson.M{"$each": byBucket[id]}}}, options.UpdateOne().SetUpsert(true))
		unlock()
		if err != nil {
			return fmt.Errorf("feed bucket: %w", err)
		}
	}
	return nil
}

// allocateSeqs returns each row's sequence number: the one its row document
// holds, or a new one from its feed's head (one $inc per feed).
func (s *Service) allocateSeqs(ctx context.Context, rows []feedItem) ([]int64, error) {
	groups := map[string][]int{} // head id → indexes into rows
	var heads []string
	for i, row := range rows {
		r, err := parseFeedRow(row.key)
		if err != nil {
			return nil, err
		}
		h := headID(row.a.WorkspaceID, row.a.OrganizationID, r.user, r.kind)
		if groups[h] == nil {
			heads = append(heads, h)
		}
		groups[h] = append(groups[h], i)
	}
	seqs := make([]int64, len(rows))
	docs := make([]any, 0, len(rows))
	for _, h := range heads {
		idx := groups[h]
		last, err := s.bumpHead(ctx, h, int64(len(idx)))
		if err != nil {
			return nil, err
		}
		for j, i := range idx {
			seqs[i] = last - int64(len(idx)) + int64(j) + 1
		}
	}
	for i, row := range rows {
		docs = append(docs, bson.M{"_id": rowDocID(row.a.WorkspaceID, row.a.AnnotationID, row.key), "seq": seqs[i]})
	}
	_, err := s.feedRows.InsertMany(ctx, docs, options.InsertMany().SetOrdered(false))
	var bwe mongo.BulkWriteException
	if err != nil && !errors.As(err, &bwe) {
		return nil, fmt.Errorf("feed rows: %w", err)
	}
	for _, we := range bwe.WriteErrors {
		if !we.HasErrorCode(11000) { // only "already exists" is expected
			return nil, fmt.Errorf("feed rows: %w", err)
		}
		// The row exists: keep its sequence number.
		if seqs[we.Index], err = s.rowSeq(ctx, docs[we.Index].(bson.M)["_id"].(string)); err != nil {
			return nil, err
		}
	}
	return seqs, nil
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
