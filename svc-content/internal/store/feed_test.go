package store_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-content/internal/annotations"
	"github.com/opencollab/backend/svc-content/internal/store"
)

// TestMongoFeedAndCountersKeepTheStoreContract runs the FeedStore and
// NumberStore contracts against the MongoDB stores on the test database.
func TestMongoFeedAndCountersKeepTheStoreContract(t *testing.T) {
	t.Run("feed", func(t *testing.T) {
		runFeedStoreContract(t, store.NewFeed(testenv.Mongo(t)))
	})
	t.Run("counters", func(t *testing.T) {
		runNumberStoreContract(t, store.NewNumbers(testenv.Mongo(t)))
	})
}

// runFeedStoreContract: rows added in one call (feeds started and feeds
// that exist, over more than one bucket) page in order, once each, again
// after the same rows are added again, and without removed rows.
func runFeedStoreContract(t *testing.T, s annotations.FeedStore) {
	ctx := t.Context()
	a := &annotations.Annotation{WorkspaceID: "ws1", OrganizationID: "org1", AnnotationID: "a1"}
	row := func(user string, i int) annotations.FeedItem {
		return annotations.FeedItem{Annotation: a, Key: annotations.FeedRow{Kind: annotations.KindComment, Item: fmt.Sprint(i), User: user}.Key()}
	}
	if err := s.Add(ctx, []annotations.FeedItem{row("old", 0)}); err != nil {
		t.Fatal(err)
	}
	var rows []annotations.FeedItem
	for i := 1; i <= 300; i++ {
		rows = append(rows, row("old", i), row(fmt.Sprintf("new%d", i%3), i))
	}
	for range 2 { // the second time is a retry
		if err := s.Add(ctx, rows); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Remove(ctx, a, row("old", 7).Key); err != nil {
		t.Fatal(err)
	}
	items := func(user string) []string {
		var out []string
		after := int64(0)
		for {
			page, err := s.Page(ctx, annotations.UserDataQuery{WorkspaceID: "ws1", OrganizationID: "org1", UserID: user}, annotations.KindComment, after, 50)
			if err != nil {
				t.Fatal(err)
			}
			if len(page) == 0 {
				return out
			}
			for _, e := range page {
				r, _ := annotations.ParseFeedRow(e.Key)
				out = append(out, r.Item)
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
func runNumberStoreContract(t *testing.T, s annotations.NumberStore) {
	ctx := t.Context()
	doc1, doc2 := annotations.Scope{WorkspaceID: "ws1", OrganizationID: "org1", DocumentID: "doc1"}, annotations.Scope{WorkspaceID: "ws1", OrganizationID: "org1", DocumentID: "doc2"}
	for _, c := range []struct {
		sc   annotations.Scope
		n    int64
		want int64
	}{{doc1, 3, 3}, {doc1, 2, 5}, {doc2, 1, 1}, {annotations.Scope{WorkspaceID: "ws1", OrganizationID: "org2", DocumentID: "doc1"}, 1, 1}} {
		if got, err := s.Reserve(ctx, c.sc, c.n); err != nil || got != c.want {
			t.Fatalf("reserve %d in %v = %d, %v; want %d", c.n, c.sc, got, err, c.want)
		}
	}
	if err := s.Move(ctx, doc1, "doc9"); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Reserve(ctx, annotations.Scope{WorkspaceID: "ws1", OrganizationID: "org1", DocumentID: "doc9"}, 1); err != nil || got != 6 {
		t.Fatalf("after the move doc9 gave %d, %v; want 6", got, err)
	}
}
