package mongodb

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// IsFerretDB reports whether db is served by FerretDB (the embedded store)
// rather than MongoDB. A store may then prefer point reads and writes by
// exact _id, the only filter FerretDB v1 serves from an index, over one
// query with a wider filter that MongoDB would serve from a secondary
// index but FerretDB answers by scanning the collection.
func IsFerretDB(ctx context.Context, db *mongo.Database) (bool, error) {
	var info bson.M
	if err := db.RunCommand(ctx, bson.D{{Key: "buildInfo", Value: 1}}).Decode(&info); err != nil {
		return false, fmt.Errorf("mongodb: buildInfo: %w", err)
	}
	_, ferret := info["ferretdbVersion"]
	return ferret, nil
}

// FindByIDs returns the documents of coll whose _id is one of ids, decoded
// as T, in no particular order; missing ids are skipped. projection may be
// nil. pointwise (IsFerretDB) reads one exact {_id: v} at a time, one after
// the other (concurrent lookups measured slower there); otherwise it is one
// {_id: {$in: ids}} query.
func FindByIDs[T any](ctx context.Context, coll *mongo.Collection, ids []string, projection any, pointwise bool) ([]T, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	if !pointwise {
		opts := options.Find()
		if projection != nil {
			opts.SetProjection(projection)
		}
		cur, err := coll.Find(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}}, opts)
		if err != nil {
			return nil, fmt.Errorf("mongodb: find by ids in %s: %w", coll.Name(), err)
		}
		var out []T
		if err := cur.All(ctx, &out); err != nil {
			return nil, fmt.Errorf("mongodb: find by ids in %s: %w", coll.Name(), err)
		}
		return out, nil
	}
	opts := options.FindOne()
	if projection != nil {
		opts.SetProjection(projection)
	}
	out := make([]T, 0, len(ids))
	for _, id := range ids {
		var d T
		err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: id}}, opts).Decode(&d)
		if IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("mongodb: find by id in %s: %w", coll.Name(), err)
		}
		out = append(out, d)
	}
	return out, nil
}
