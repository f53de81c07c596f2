package store

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"golang.org/x/sync/errgroup"
)

// writeConcurrency is how many single-document writes of one batch are in
// flight at once. FerretDB v1 (the embedded store) commits every document
// an update modifies in a SQLite transaction of its own, even inside one
// multi-document update, so a batch of distinct changes costs a commit per
// document whatever shape the commands take, and a multi-document update
// adds a scan. Overlapping a few single-document updates (the round trip,
// FerretDB's decoding and lookup of one with the commit of another) took
// 250 of them from 3.0 s to 1.0 s on the shared 2-core machine at load 30;
// 16 in flight gained nothing over 4.
const writeConcurrency = 4

// idUpdate is one update of the document whose _id is id.
type idUpdate struct {
	id     any
	update bson.M
}

// updateByID applies each update to its document, named by its exact _id
// (the one filter FerretDB v1 answers from its index), writeConcurrency at
// a time, and returns the first error. The documents are distinct, so the
// order they are written in does not matter; each update is idempotent,
// so a retry after a failure part way completes the batch.
func updateByID(ctx context.Context, coll *mongo.Collection, updates []idUpdate) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(writeConcurrency)
	for _, u := range updates {
		g.Go(func() error {
			if _, err := coll.UpdateOne(gctx, bson.M{"_id": u.id}, u.update); err != nil {
				return fmt.Errorf("update in %s: %w", coll.Name(), err)
			}
			return nil
		})
	}
	return g.Wait()
}
