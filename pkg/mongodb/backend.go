package mongodb

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
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
