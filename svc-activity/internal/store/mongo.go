// Package store persists activity log records in MongoDB.
//
// Free-form JSON (actionUser, changes, entityData, entityTargetData,
// displayMessageTemplateData) is stored as compacted JSON text, not as BSON:
// converting it to BSON and back turns 1.0 into 1 and integers beyond int64
// into lossy doubles, while text reads back byte for byte, key order
// included. Nothing queries inside these fields; the one that is queried,
// actionUser.userId, is kept in its own field actionUserId.
package store

import (
	"context"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/svc-activity/internal/activity"
)

// activitiesColl holds the records.
const activitiesColl = "activities"

// Mongo is the MongoDB store of the activity service.
type Mongo struct {
	db   *mongo.Database
	coll *mongo.Collection
	// pointReads: the database is FerretDB, which serves only exact _id
	// filters from an index, so looking ids up goes one _id at a time
	// instead of one $in query it would answer by scanning every record.
	// Set by EnsureIndexes.
	pointReads bool
}

// NewMongo returns a store over db. Call EnsureIndexes before serving.
func NewMongo(db *mongo.Database) *Mongo {
	return &Mongo{db: db, coll: db.Collection(activitiesColl)}
}

// EnsureIndexes creates the indexes; safe at every start.
func (m *Mongo) EnsureIndexes(ctx context.Context) error {
	ferret, err := mongodb.IsFerretDB(ctx, m.db)
	if err != nil {
		return err
	}
	m.pointReads = ferret
	return mongodb.EnsureIndexes(ctx, m.coll,
		// The identity of a record: add upserts on it.
		mongo.IndexModel{
			Keys:    bson.D{{Key: "workspaceId", Value: 1}, {Key: "id", Value: 1}},
			Options: options.Index().SetUnique(true).SetName("workspace_id_unique"),
		},
		// get of an organization in (timestamp, id) order, the page key.
		mongo.IndexModel{
			Keys:    keys("workspaceId", "organizationId", "timestamp", "id"),
			Options: options.Index().SetName("org_timestamp_id"),
		},
		// get, delete, migrate and has-data by document.
		mongo.IndexModel{
			Keys:    keys("workspaceId", "organizationId", "documentId", "timestamp", "id"),
			Options: options.Index().SetName("org_document_timestamp_id"),
		},
		// get and delete by target entity.
		mongo.IndexModel{
			Keys:    keys("workspaceId", "organizationId", "targetEntityId", "timestamp", "id"),
			Options: options.Index().SetName("org_target_timestamp_id"),
		},
		// get by acting user.
		mongo.IndexModel{
			Keys:    keys("workspaceId", "organizationId", "actionUserId", "timestamp", "id"),
			Options: options.Index().SetName("org_user_timestamp_id"),
		},
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
func (m *Mongo) Ping(ctx context.Context) error {
	return m.db.Client().Ping(ctx, nil)
}

// notImmutable is the guard of every write: immutable records are left
// alone.
var notImmutable = bson.E{Key: "immutable", Value: bson.M{"$ne": true}}

// ReplaceAll implements activity.Store. It looks the ids up first (one
// exact _id read each on FerretDB, see mongodb.FindByIDs): an immutable
// one fails the call before anything is written. Records not stored yet
// (every generated id, most client ids) are then inserted in one unordered
// InsertMany, changed ones replace-upserted, and unchanged ones (the same
// add again, a retry) left as they are. Inserting matters on the
// embedded FerretDB, which runs every filtered write as a scan of the
// collection; skipping matters there too, where a replace is one command
// per record.
func (m *Mongo) ReplaceAll(ctx context.Context, ws string, recs []activity.Record) error {
	if len(recs) == 0 {
		return nil
	}
	keys := make([]string, len(recs))
	for i, r := range recs {
		keys[i] = activityKey(ws, r.ID)
	}
	stored, err := mongodb.FindByIDs[activityDoc](ctx, m.coll, keys, nil, m.pointReads)
	if err != nil {
		return fmt.Errorf("look up activity ids: %w", err)
	}
	existing := make(map[string]activityDoc, len(stored))
	for _, d := range stored {
		if d.Immutable {
			return &activity.ImmutableError{ID: d.ID}
		}
		existing[d.ID] = d
	}
	var fresh, replace []activity.Record
	for i, r := range recs {
		d, found := existing[r.ID]
		switch {
		case !found:
			fresh = append(fresh, r)
		case sameButTimestamp(d, newDoc(ws, r)):
			recs[i].Timestamp = d.Timestamp
		default:
			replace = append(replace, r)
		}
	}
	raced, err := m.insertFresh(ctx, ws, fresh)
	if err != nil {
		return err
	}
	return m.upsert(ctx, ws, append(replace, raced...))
}

// sameButTimestamp reports whether writing d over stored would change
// nothing but the time of the add.
func sameButTimestamp(stored, d activityDoc) bool {
	stored.Timestamp = d.Timestamp
	return stored == d
}

// insertFresh inserts records believed new. Those a concurrent writer
// stored meanwhile fail on the unique index; they are returned to be
// replaced like any existing record.
func (m *Mongo) insertFresh(ctx context.Context, ws string, recs []activity.Record) (raced []activity.Record, err error) {
	if len(recs) == 0 {
		return nil, nil
	}
	docs := make([]any, len(recs))
	for i, r := range recs {
		docs[i] = newDoc(ws, r)
	}
	_, err = m.coll.InsertMany(ctx, docs, options.InsertMany().SetOrdered(false))
	if err == nil {
		return nil, nil
	}
	var bwe mongo.BulkWriteException
	if !errors.As(err, &bwe) || bwe.WriteConcernError != nil {
		return nil, fmt.Errorf("insert activities: %w", err)
	}
	for _, we := range bwe.WriteErrors {
		if !mongo.IsDuplicateKeyError(we.WriteError) {
			return nil, fmt.Errorf("insert activities: %w", err)
		}
		raced = append(raced, recs[we.Index])
	}
	return raced, nil
}

// upsert is one ordered bulk write of replace-upserts. A record that is
// immutable fails the filter, the upsert then collides with the unique
// index, and that is reported as activity.ErrImmutable.
func (m *Mongo) upsert(ctx context.Context, ws string, recs []activity.Record) error {
	if len(recs) == 0 {
		return nil
	}
	if m.pointReads {
		return m.replaceEach(ctx, ws, recs)
	}
	models := make([]mongo.WriteModel, len(recs))
	for i, r := range recs {
		models[i] = mongo.NewReplaceOneModel().
			SetFilter(bson.D{{Key: "workspaceId", Value: ws}, {Key: "id", Value: r.ID}, notImmutable}).
			SetReplacement(newDoc(ws, r)).
			SetUpsert(true)
	}
	_, err := m.coll.BulkWrite(ctx, models)
	if mongodb.IsDuplicateKey(err) {
		return activity.ErrImmutable
	}
	if err != nil {
		return fmt.Errorf("write activities: %w", err)
	}
	return nil
}

// replaceEach replaces records one at a time by exact _id, for FerretDB:
// it hangs on a bulk write of many statements and scans every record for
// any other filter. ReplaceAll has just refused immutable records; the
// one-process embedded store leaves only a concurrent request of this
// process to change that meanwhile, and the last writer wins as on a
// replace of a mutable record.
func (m *Mongo) replaceEach(ctx context.Context, ws string, recs []activity.Record) error {
	for _, r := range recs {
		doc := newDoc(ws, r)
		if _, err := m.coll.ReplaceOne(ctx, bson.M{"_id": doc.Key}, doc, options.Replace().SetUpsert(true)); err != nil {
			return fmt.Errorf("write activity: %w", err)
		}
	}
	return nil
}

// FindByIDs implements activity.Store.
func (m *Mongo) FindByIDs(ctx context.Context, ws, org string, ids []string) ([]activity.Record, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return m.find(ctx, bson.D{
		{Key: "workspaceId", Value: ws}, {Key: "organizationId", Value: org}, {Key: "id", Value: bson.M{"$in": ids}},
	}, nil)
}

// FindMatching implements activity.Store.
func (m *Mongo) FindMatching(ctx context.Context, ws string, f activity.Filter) ([]activity.Record, error) {
	return m.find(ctx, filterDoc(ws, f), nil)
}

// DeleteByIDs implements activity.Store.
func (m *Mongo) DeleteByIDs(ctx context.Context, ws, org string, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := m.coll.DeleteMany(ctx, bson.D{
		{Key: "workspaceId", Value: ws}, {Key: "organizationId", Value: org},
		{Key: "id", Value: bson.M{"$in": ids}}, notImmutable,
	})
	if err != nil {
		return fmt.Errorf("delete activities: %w", err)
	}
	return nil
}

// MoveDocument implements activity.Store.
func (m *Mongo) MoveDocument(ctx context.Context, ws, org, from, to string) (int64, error) {
	res, err := m.coll.UpdateMany(ctx,
		bson.D{{Key: "workspaceId", Value: ws}, {Key: "organizationId", Value: org}, {Key: "documentId", Value: from}},
		bson.M{"$set": bson.M{"documentId": to}})
	if err != nil {
		return 0, fmt.Errorf("move activities: %w", err)
	}
	return res.ModifiedCount, nil
}

// HasDocumentData implements activity.Store.
func (m *Mongo) HasDocumentData(ctx context.Context, ws, org, doc string) (bool, error) {
	n, err := m.coll.CountDocuments(ctx,
		bson.D{{Key: "workspaceId", Value: ws}, {Key: "organizationId", Value: org}, {Key: "documentId", Value: doc}},
		options.Count().SetLimit(1))
	if err != nil {
		return false, fmt.Errorf("count activities: %w", err)
	}
	return n > 0, nil
}

func (m *Mongo) find(ctx context.Context, filter bson.D, opts *options.FindOptionsBuilder) ([]activity.Record, error) {
	return mongodb.FindAll(ctx, m.coll, filter, opts, "activities", activityDoc.record)
}
