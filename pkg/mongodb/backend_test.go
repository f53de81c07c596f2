package mongodb_test

import (
	"cmp"
	"slices"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/pkg/testenv"
)

// Both ways of reading by _id find the same documents, skip missing ids
// and apply the projection.
func TestFindByIDs(t *testing.T) {
	coll := testenv.Mongo(t).Collection("things")
	ctx := t.Context()
	for _, id := range []string{"a", "b", "c"} {
		if _, err := coll.InsertOne(ctx, bson.M{"_id": id, "name": "thing " + id, "secret": "s"}); err != nil {
			t.Fatal(err)
		}
	}
	type thing struct {
		ID     string `bson:"_id"`
		Name   string `bson:"name"`
		Secret string `bson:"secret"`
	}
	for _, pointwise := range []bool{true, false} {
		got, err := mongodb.FindByIDs[thing](ctx, coll, []string{"c", "missing", "a"}, bson.M{"name": 1}, pointwise)
		if err != nil {
			t.Fatalf("pointwise=%v: %v", pointwise, err)
		}
		slices.SortFunc(got, func(x, y thing) int { return cmp.Compare(x.ID, y.ID) })
		want := []thing{{ID: "a", Name: "thing a"}, {ID: "c", Name: "thing c"}}
		if !slices.Equal(got, want) {
			t.Fatalf("pointwise=%v: got %+v, want %+v", pointwise, got, want)
		}
		if none, err := mongodb.FindByIDs[thing](ctx, coll, nil, nil, pointwise); err != nil || len(none) != 0 {
			t.Fatalf("pointwise=%v: no ids gave %v, %v", pointwise, none, err)
		}
	}
}
