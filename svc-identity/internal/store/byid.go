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
