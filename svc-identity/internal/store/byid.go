package store

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// FerretDB v1 (the embedded store) answers only a filter of an exact _id
// alone from its index; every other filter, $in of _ids included, reads the
// whole collection. So a batch that knows its documents' _ids writes them
// with one command of one statement per _id: one round trip, no scan.
//
// Update statements are multi (updateMany): FerretDB v1 keeps the cursor of
// a single-document (updateOne) statement open until the whole command
// ends, and a command of more statements than its connection pool (100)
// hangs; a multi statement reads its cursor to the end, which closes it.

// idUpdate is one update of the document with the _id id.
type idUpdate struct {
	id     any
	update bson.M
}

// updateByID applies each update to the document of its _id with one
// command; the caller bounds the batch (writeChunk).
func updateByID(ctx context.Context, coll *mongo.Collection, updates []idUpdate) error {
	if len(updates) == 0 {
		return nil
	}
	models := make([]mongo.WriteModel, len(updates))
	for i, u := range updates {
		models[i] = mongo.NewUpdateManyModel().SetFilter(bson.D{{Key: "_id", Value: u.id}}).SetUpdate(u.update)
	}
	if _, err := coll.BulkWrite(ctx, models, options.BulkWrite().SetOrdered(false)); err != nil {
		return fmt.Errorf("update by _id in %s: %w", coll.Name(), err)
	}
	return nil
}

// deleteByID removes the documents of ids with one command; the caller
// bounds the batch (writeChunk).
func deleteByID(ctx context.Context, coll *mongo.Collection, ids []any) error {
	if len(ids) == 0 {
		return nil
	}
	models := make([]mongo.WriteModel, len(ids))
	for i, id := range ids {
		models[i] = mongo.NewDeleteOneModel().SetFilter(bson.D{{Key: "_id", Value: id}})
	}
	if _, err := coll.BulkWrite(ctx, models, options.BulkWrite().SetOrdered(false)); err != nil {
		return fmt.Errorf("delete by _id in %s: %w", coll.Name(), err)
	}
	return nil
}

// idsByField reads, with one query, the documents matching filter and
// returns their values of field (a natural id such as documentId) and their
// _ids, in the same order.
func idsByField(ctx context.Context, coll *mongo.Collection, filter bson.D, field string) (natural []string, ids []any, err error) {
	docs, err := findAll[bson.M](ctx, coll, filter, options.Find().SetProjection(bson.M{"_id": 1, field: 1}))
	if err != nil {
		return nil, nil, err
	}
	for _, d := range docs {
		if v, ok := d[field].(string); ok {
			natural, ids = append(natural, v), append(ids, d["_id"])
		}
	}
	return natural, ids, nil
}
