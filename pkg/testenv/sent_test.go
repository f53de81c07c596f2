package testenv

import (
	"slices"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// The counter keeps only its database's commands and tells the selections
// by exact _id from the scans, per statement.
func TestCountingMongoTellsScansFromLookupsByID(t *testing.T) {
	t.Parallel()
	db, counter := CountingMongo(t)
	ctx := t.Context()
	c := db.Collection("things")
	if _, err := c.InsertMany(ctx, []any{bson.M{"_id": "a", "n": 1}, bson.M{"_id": "b", "n": 2}}); err != nil {
		t.Fatal(err)
	}
	sent := counter.Record(func() {
		_ = c.FindOne(ctx, bson.M{"_id": "a"}).Err()
		_ = c.FindOne(ctx, bson.M{"n": 2}).Err()
		_ = c.FindOne(ctx, bson.M{"_id": bson.M{"$in": []string{"a"}}}).Err()
		if _, err := c.BulkWrite(ctx, []mongo.WriteModel{
			mongo.NewUpdateOneModel().SetFilter(bson.M{"_id": "a"}).SetUpdate(bson.M{"$set": bson.M{"n": 3}}),
			mongo.NewUpdateOneModel().SetFilter(bson.M{"n": 2}).SetUpdate(bson.M{"$set": bson.M{"n": 4}}),
			mongo.NewUpdateOneModel().SetFilter(bson.M{"_id": "b"}).SetUpdate(bson.M{"$set": bson.M{"n": 5}}),
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.DeleteMany(ctx, bson.M{"_id": "a"}); err != nil {
			t.Fatal(err)
		}
		if err := db.Client().Database("admin").RunCommand(ctx, bson.D{{Key: "ping", Value: 1}}).Err(); err != nil {
			t.Fatal(err)
		}
	})
	if got, want := sent.Names(), []string{"find", "find", "find", "update", "delete"}; !slices.Equal(got, want) {
		t.Errorf("names %v, want %v (the admin ping left out)", got, want)
	}
	if got, want := sent.Scans(), []string{"find", "find", "update"}; !slices.Equal(got, want) {
		t.Errorf("scans %v, want %v", got, want)
	}
	if got := sent.ByIDWrites(); got != 3 {
		t.Errorf("writes by _id: %d, want 3 (two update statements and the delete)", got)
	}
	if got := sent.Counts(); got["find"] != 3 || got["update"] != 1 || got["delete"] != 1 || len(got) != 3 {
		t.Errorf("counts %v", got)
	}
	if sent[0].Collection != "things" {
		t.Errorf("collection %q, want things", sent[0].Collection)
	}
}
