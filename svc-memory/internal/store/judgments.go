// Package store persists svc-memory's data in MongoDB: judgments (the
// store of record the vector indexes are rebuilt from), custom agents and
// their versions, and the per-workspace state of built-in agents.
package store

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/svc-memory/internal/judgment"
	"github.com/opencollab/backend/svc-memory/internal/memory"
)

const judgmentsColl = "judgments"

// Judgments is the MongoDB store of judgments (memory.Store).
type Judgments struct {
	db   *mongo.Database
	coll *mongo.Collection
	now  func() time.Time
	// pointWrites: the database is FerretDB, which serves only exact _id
	// filters from an index, so reads and marks of known judgments go one
	// _id at a time instead of in one wider query that it would answer by
	// scanning the collection. Set by EnsureIndexes.
	pointWrites bool
}

// NewJudgments returns the store over db. Call EnsureIndexes before use.
func NewJudgments(db *mongo.Database) *Judgments {
	return &Judgments{db: db, coll: db.Collection(judgmentsColl), now: time.Now}
}

// EnsureIndexes creates the indexes; safe at every start.
func (s *Judgments) EnsureIndexes(ctx context.Context) error {
	ferret, err := mongodb.IsFerretDB(ctx, s.db)
	if err != nil {
		return err
	}
	s.pointWrites = ferret
	return mongodb.EnsureIndexes(ctx, s.coll,
		// Identity: ingest upserts on it.
		mongo.IndexModel{
			Keys:    keys("workspaceId", "recordId"),
			Options: options.Index().SetUnique(true).SetName("workspace_record_unique"),
		},
		// Listings of a workspace, newest first, and the page key.
		mongo.IndexModel{Keys: keys("workspaceId", "createdAt", "recordId"), Options: options.Index().SetName("workspace_created")},
		// Listings and counts of an organization or a document.
		mongo.IndexModel{Keys: keys("workspaceId", "organizationId", "documentId", "createdAt"), Options: options.Index().SetName("org_document_created")},
		// Comment threads.
		mongo.IndexModel{Keys: keys("workspaceId", "organizationId", "annotationId", "createdAt"), Options: options.Index().SetName("org_annotation_created")},
		// The index sweep.
		mongo.IndexModel{Keys: keys("indexed"), Options: options.Index().SetName("indexed")},
	)
}

func keys(names ...string) bson.D {
	d := make(bson.D, len(names))
	for i, n := range names {
		d[i] = bson.E{Key: n, Value: 1}
	}
	return d
}

// Ping checks the database is reachable (readiness).
func (s *Judgments) Ping(ctx context.Context) error { return s.db.Client().Ping(ctx, nil) }

// SaveJudgment implements memory.Store. A new record id (the usual case)
// is one insert. An existing one is a replace-upsert keyed by
// (workspaceId, recordId) guarded by sourceAt: when a later event's
// version is stored the guard fails, the upsert collides with the unique
// index, and nothing changes. Inserting first matters on the embedded
// FerretDB, where a filtered write scans the collection.
func (s *Judgments) SaveJudgment(ctx context.Context, ws string, j judgment.Judgment, sourceAt int64) (int64, bool, error) {
	now := s.now()
	doc := newJudgmentDoc(ws, j)
	doc.SourceAt, doc.UpdatedAt, doc.Rev = sourceAt, now.UnixMilli(), now.UnixNano()
	_, err := s.coll.InsertOne(ctx, doc)
	if err == nil {
		return doc.Rev, true, nil
	}
	if !mongodb.IsDuplicateKey(err) {
		return 0, false, fmt.Errorf("save judgment: %w", err)
	}
	_, err = s.coll.ReplaceOne(ctx,
		bson.D{{Key: "workspaceId", Value: ws}, {Key: "recordId", Value: j.RecordID}, {Key: "sourceAt", Value: bson.M{"$lte": sourceAt}}},
		doc, options.Replace().SetUpsert(true))
	if mongodb.IsDuplicateKey(err) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("save judgment: %w", err)
	}
	return doc.Rev, true, nil
}

// DeleteJudgment implements memory.Store.
func (s *Judgments) DeleteJudgment(ctx context.Context, ws, recordID string, sourceAt int64) (bool, error) {
	res, err := s.coll.DeleteOne(ctx, bson.D{
		{Key: "workspaceId", Value: ws}, {Key: "recordId", Value: recordID}, {Key: "sourceAt", Value: bson.M{"$lte": sourceAt}},
	})
	if err != nil {
		return false, fmt.Errorf("delete judgment: %w", err)
	}
	return res.DeletedCount > 0, nil
}

// FindByIDs implements memory.Store: exact _id reads (mongodb.FindByIDs).
func (s *Judgments) FindByIDs(ctx context.Context, ws string, ids []string) ([]memory.Stored, error) {
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = judgmentKey(ws, id)
	}
	docs, err := mongodb.FindByIDs[judgmentDoc](ctx, s.coll, keys, nil, s.pointWrites)
	if err != nil {
		return nil, err
	}
	out := make([]memory.Stored, len(docs))
	for i, d := range docs {
		out[i] = d.stored()
	}
	return out, nil
}

// List implements memory.Store. The page starts strictly after q.After in
// (createdAt, recordId) order, so the database seeks instead of skipping.
func (s *Judgments) List(ctx context.Context, ws string, q memory.ListQuery) ([]memory.Stored, error) {
	filter := filterDoc(ws, q.Filter)
	order := mongodb.Keyset{Field: "createdAt", IDField: "recordId", Desc: q.Desc}
	if c := q.After; c != nil {
		filter = append(filter, bson.E{Key: "$or", Value: order.After(c.CreatedAt, c.RecordID)})
	}
	return s.find(ctx, filter, options.Find().SetSort(order.Sort()).SetLimit(int64(q.Limit)))
}

// Count implements memory.Store.
func (s *Judgments) Count(ctx context.Context, ws string, f memory.Filter) (int64, error) {
	n, err := s.coll.CountDocuments(ctx, filterDoc(ws, f))
	if err != nil {
		return 0, fmt.Errorf("count judgments: %w", err)
	}
	return n, nil
}

// MoveDocument implements memory.Store.
func (s *Judgments) MoveDocument(ctx context.Context, ws, org, doc, newDoc string) (int64, error) {
	now := s.now()
	res, err := s.coll.UpdateMany(ctx,
		bson.D{{Key: "workspaceId", Value: ws}, {Key: "organizationId", Value: org}, {Key: "documentId", Value: doc}},
		bson.M{"$set": bson.M{"documentId": newDoc, "indexed": false, "updatedAt": now.UnixMilli(), "rev": now.UnixNano()}})
	if err != nil {
		return 0, fmt.Errorf("move judgments: %w", err)
	}
	return res.ModifiedCount, nil
}

// HasDocumentData implements memory.Store.
func (s *Judgments) HasDocumentData(ctx context.Context, ws, org, doc string) (bool, error) {
	n, err := s.coll.CountDocuments(ctx,
		bson.D{{Key: "workspaceId", Value: ws}, {Key: "organizationId", Value: org}, {Key: "documentId", Value: doc}},
		options.Count().SetLimit(1))
	if err != nil {
		return false, fmt.Errorf("count judgments: %w", err)
	}
	return n > 0, nil
}

// Unindexed implements memory.Store.
func (s *Judgments) Unindexed(ctx context.Context, limit int) ([]memory.Stored, error) {
	return s.find(ctx, bson.D{{Key: "indexed", Value: false}}, options.Find().SetLimit(int64(limit)))
}

// MarkIndexed implements memory.Store: one update of every judgment still
// at the revision that was indexed. On MongoDB that is one $or filter,
// each branch served by the (workspaceId, recordId) index. On FerretDB,
// which would scan for it, each judgment is read and marked by exact _id;
// a newer revision saved between the two is then marked too, a race that
// FerretDB's own filtered updates (read, then write) have as well: such a
// judgment keeps its older vectors until it is written again or the index
// is rebuilt.
func (s *Judgments) MarkIndexed(ctx context.Context, done []memory.Stored) error {
	if len(done) == 0 {
		return nil
	}
	if s.pointWrites {
		return s.markEach(ctx, done)
	}
	branches := make(bson.A, len(done))
	for i, j := range done {
		branches[i] = bson.D{{Key: "workspaceId", Value: j.WorkspaceID}, {Key: "recordId", Value: j.RecordID}, {Key: "rev", Value: j.Rev}}
	}
	_, err := s.coll.UpdateMany(ctx, bson.D{{Key: "$or", Value: branches}}, bson.M{"$set": bson.M{"indexed": true}})
	if err != nil {
		return fmt.Errorf("mark judgments indexed: %w", err)
	}
	return nil
}

func (s *Judgments) markEach(ctx context.Context, done []memory.Stored) error {
	for _, j := range done {
		key := bson.D{{Key: "_id", Value: judgmentKey(j.WorkspaceID, j.RecordID)}}
		var cur struct {
			Rev int64 `bson:"rev"`
		}
		err := s.coll.FindOne(ctx, key).Decode(&cur)
		if mongodb.IsNotFound(err) || (err == nil && cur.Rev != j.Rev) {
			continue // deleted or rewritten meanwhile: its own indexing marks it
		}
		if err != nil {
			return fmt.Errorf("mark judgment indexed: %w", err)
		}
		if _, err := s.coll.UpdateOne(ctx, key, bson.M{"$set": bson.M{"indexed": true}}); err != nil {
			return fmt.Errorf("mark judgment indexed: %w", err)
		}
	}
	return nil
}

// MarkUnindexed implements memory.Store.
func (s *Judgments) MarkUnindexed(ctx context.Context, since int64) error {
	filter := bson.D{{Key: "indexed", Value: true}}
	if since > 0 {
		filter = append(filter, bson.E{Key: "updatedAt", Value: bson.M{"$gte": since}})
	}
	if _, err := s.coll.UpdateMany(ctx, filter, bson.M{"$set": bson.M{"indexed": false}}); err != nil {
		return fmt.Errorf("mark judgments for re-indexing: %w", err)
	}
	return nil
}

func (s *Judgments) find(ctx context.Context, filter bson.D, opts *options.FindOptionsBuilder) ([]memory.Stored, error) {
	return mongodb.FindAll(ctx, s.coll, filter, opts, "judgments", judgmentDoc.stored)
}

// ReviewedBy implements memory.Store.
func (s *Judgments) ReviewedBy(ctx context.Context, ws string, userIDs []string) ([]string, error) {
	cur, err := s.coll.Find(ctx, bson.D{{Key: "workspaceId", Value: ws}, {Key: "reviewerId", Value: bson.M{"$in": userIDs}}},
		options.Find().SetProjection(bson.M{"recordId": 1}))
	if err != nil {
		return nil, fmt.Errorf("find judgments by reviewer: %w", err)
	}
	var docs []struct {
		RecordID string `bson:"recordId"`
	}
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("read judgments by reviewer: %w", err)
	}
	ids := make([]string, len(docs))
	for i, d := range docs {
		ids[i] = d.RecordID
	}
	return ids, nil
}
