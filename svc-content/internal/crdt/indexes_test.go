package crdt

import (
	"slices"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/pkg/testenv"
)

func indexNames(t *testing.T, c *mongo.Collection) []string {
	t.Helper()
	specs, err := c.Indexes().ListSpecifications(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range specs {
		names = append(names, s.Name)
	}
	return names
}

// On FerretDB, where no query reads the log by an index but _id's, an
// append maintains no other: EnsureIndexes creates none and drops the
// editor index an older version created. MongoDB keeps it for the
// previous writer's entries.
func TestLogIndexesOnTheEmbeddedStore(t *testing.T) {
	db := testenv.Mongo(t)
	ctx := t.Context()
	ferret, err := mongodb.IsFerretDB(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	store := newMongoStore(db)
	older := mongo.IndexModel{Keys: bson.D{
		{Key: "workspaceId", Value: 1}, {Key: "organizationId", Value: 1}, {Key: "documentId", Value: 1}, {Key: "editorId", Value: 1},
	}, Options: options.Index().SetName(logEditorIndex)}
	if err := mongodb.EnsureIndexes(ctx, store.log, older); err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second run finds nothing to drop
		if err := store.EnsureIndexes(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if has := slices.Contains(indexNames(t, store.log), logEditorIndex); has == ferret {
		t.Fatalf("FerretDB %v: the log's indexes are %v", ferret, indexNames(t, store.log))
	}
	if !slices.Contains(indexNames(t, store.states), "editor_version_unique") {
		t.Fatalf("the states' indexes are %v", indexNames(t, store.states))
	}
}
