package mongodb_test

import (
	"strconv"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/pkg/testenv"
)

func TestKeysetPagesHaveNoGapsOrRepeats(t *testing.T) {
	t.Parallel()
	coll := testenv.Mongo(t).Collection("items")
	// Ties on "at" are broken by _id.
	for i, at := range []int{1, 2, 2, 2, 3} {
		if _, err := coll.InsertOne(t.Context(), bson.M{"_id": "i" + strconv.Itoa(i), "at": at}); err != nil {
			t.Fatal(err)
		}
	}
	type doc struct {
		ID string `bson:"_id"`
		At int    `bson:"at"`
	}
	for _, desc := range []bool{false, true} {
		k := mongodb.Keyset{Field: "at", IDField: "_id", Desc: desc}
		var seen []string
		var last *doc
		for range 10 {
			filter := bson.M{}
			if last != nil {
				filter["$or"] = k.After(last.At, last.ID)
			}
			page, err := mongodb.FindAll(t.Context(), coll, filter, options.Find().SetSort(k.Sort()).SetLimit(2), "items", func(d doc) doc { return d })
			if err != nil {
				t.Fatal(err)
			}
			if len(page) == 0 {
				break
			}
			for _, d := range page {
				seen = append(seen, d.ID)
			}
			last = &page[len(page)-1]
		}
		want := []string{"i0", "i1", "i2", "i3", "i4"}
		if desc {
			want = []string{"i4", "i3", "i2", "i1", "i0"}
		}
		if len(seen) != len(want) {
			t.Fatalf("desc=%v: pages read %v, want %v", desc, seen, want)
		}
		for i := range want {
			if seen[i] != want[i] {
				t.Fatalf("desc=%v: pages read %v, want %v", desc, seen, want)
			}
		}
	}
}
