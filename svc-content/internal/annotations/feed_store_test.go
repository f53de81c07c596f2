package annotations

import (
	"fmt"
	"slices"
	"testing"

	"github.com/opencollab/backend/pkg/testenv"
)

// TestMongoFeedAndCountersKeepTheStoreContract runs the feedStore and
// numberStore contracts against the MongoDB stores on the test database.
func TestMongoFeedAndCountersKeepTheStoreContract(t *testing.T) {
	t.Run("feed", func(t *testing.T) {
		db := testenv.Mongo(t)
		runFeedStoreContract(t, &mongoFeed{heads: collection(db, FeedCollection), rows: collection(db, FeedRowsCollection)})
	})
	t.Run("counters", func(t *testing.T) {
		runNumberStoreContract(t, &mongoCounters{coll: collection(testenv.Mongo(t), CountersCollection)})
	})
}

// runFeedStoreContract: rows added in one call (feeds started and feeds
// that exist, over more than one bucket) page in order, once each, again
// after the same rows are added again, and without removed rows.
func runFeedStoreContract(t *testing.T, s feedStore) {
	ctx := t.Context()
	a := &Annotation{WorkspaceID: "ws1", OrganizationID: "org1", AnnotationID: "a1"}
	row := func(user string, i int) feedItem {
		return feedItem{a, feedRow{kindComment, fmt.Sprint(i), user}.key()}
	}
	if err := s.Add(ctx, []feedItem{row("old", 0)}); err != nil {
		t.Fatal(err)
	}
	var rows []feedItem
	for i := 1; i <= 300; i++ {
		rows = append(rows, row("old", i), row(fmt.Sprintf("new%d", i%3), i))
	}
	for range 2 { // the second time is a retry
		if err := s.Add(ctx, rows); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Remove(ctx, a, row("old", 7).key); err != nil {
		t.Fatal(err)
	}
	items := func(user string) []string {
		var out []string
		after := int64(0)
		for {
			page, err := s.Page(ctx, UserDataQuery{WorkspaceID: "ws1", OrganizationID: "org1", UserID: user}, kindComment, after, 50)
			if err != nil {
				t.Fatal(err)
			}
			if len(page) == 0 {
				return out
			}
			for _, e := range page {
				r, _ := parseFeedRow(e.Key)
				out = append(out, r.item)
			}
			after = page[len(page)-1].Seq
		}
	}
	var want []string
	for i := 0; i <= 300; i++ {
		if i != 7 {
			want = append(want, fmt.Sprint(i))
		}
	}
	if got := items("old"); !slices.Equal(got, want) {
		t.Errorf("old's feed = %v,\nwant %v", got, want)
	}
	if got := items("new1"); len(got) != 100 || got[0] != "1" || got[99] != "298" {
		t.Errorf("new1's feed = %v, want 1, 4, ..., 298", got)
	}
}

// runNumberStoreContract: reservations follow each other per document, and
// a moved counter goes on from where it was.
func runNumberStoreContract(t *testing.T, s numberStore) {
	ctx := t.Context()
	doc1, doc2 := Scope{"ws1", "org1", "doc1"}, Scope{"ws1", "org1", "doc2"}
	for _, c := range []struct {
		sc   Scope
		n    int64
		want int64
	}{{doc1, 3, 3}, {doc1, 2, 5}, {doc2, 1, 1}, {Scope{"ws1", "org2", "doc1"}, 1, 1}} {
		if got, err := s.Reserve(ctx, c.sc, c.n); err != nil || got != c.want {
			t.Fatalf("reserve %d in %v = %d, %v; want %d", c.n, c.sc, got, err, c.want)
		}
	}
	if err := s.Move(ctx, doc1, "doc9"); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Reserve(ctx, Scope{"ws1", "org1", "doc9"}, 1); err != nil || got != 6 {
		t.Fatalf("after the move doc9 gave %d, %v; want 6", got, err)
	}
}
