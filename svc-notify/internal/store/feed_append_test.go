package store_test

import (
	"context"
	"slices"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-notify/internal/store"
)

// A feed whose page is missing (its write lost to a crash) still gets the
// next entry: the bulk update of pages matches fewer than it addressed, and
// the entries are upserted one by one, never dropped silently.
func TestAppendToFeedsWritesEntryWhosePageIsMissing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	client, err := mongodb.Connect(ctx, testenv.MongoURI(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Disconnect(ctx) })
	db := client.Database(testenv.FreshDBName(t))
	s := store.NewMongo(db)
	if err := s.EnsureIndexes(ctx); err != nil {
		t.Fatal(err)
	}
	save(t, s, "ws1", note("n1", 1, to("u1", "u2")))
	if _, err := db.Collection("user_feed_pages").DeleteMany(ctx, bson.D{}); err != nil {
		t.Fatal(err)
	}
	save(t, s, "ws1", note("n2", 2, to("u1", "u2")))
	for _, u := range []string{"u1", "u2", "actor"} {
		if got := feed(t, s, "ws1", u, 10); !slices.Equal(got, []string{"n2"}) {
			t.Errorf("feed of %s = %v, want [n2] (n1's page was deleted)", u, got)
		}
	}
}
