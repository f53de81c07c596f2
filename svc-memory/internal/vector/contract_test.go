package vector_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/opencollab/backend/svc-memory/internal/vector"
)

// The contract every Index implementation must meet. Expected answers come
// from a brute-force reference model of the same points, so each check
// compares the implementation with an independent computation.

const contractDim = 32

type newIndexFunc func(t *testing.T, dim int) vector.Index

func runContract(t *testing.T, newIndex newIndexFunc) {
	t.Run("UpsertCountIdempotent", func(t *testing.T) { testUpsertCount(t, newIndex) })
	t.Run("Overwrite", func(t *testing.T) { testOverwrite(t, newIndex) })
	t.Run("Delete", func(t *testing.T) { testDelete(t, newIndex) })
	t.Run("EveryFilterField", func(t *testing.T) { testFilterFields(t, newIndex) })
	t.Run("LimitHonouredUnderSelectiveFilter", func(t *testing.T) { testLimitHonoured(t, newIndex) })
	t.Run("OrderingByScore", func(t *testing.T) { testOrdering(t, newIndex) })
	t.Run("WorkspaceIsolation", func(t *testing.T) { testIsolation(t, newIndex) })
	t.Run("InvalidArguments", func(t *testing.T) { testInvalid(t, newIndex) })
}

func wsA() vector.Filter { return vector.Filter{WorkspaceID: "ws-a"} }

func testUpsertCount(t *testing.T, newIndex newIndexFunc) {
	idx := newIndex(t, contractDim)
	f := newFixture(200, 60)
	f.load(t, idx)
	f.load(t, idx) // idempotent
	f.check(t, idx, f.randomVector(), wsA(), 10)
	f.check(t, idx, f.randomVector(), vector.Filter{WorkspaceID: "ws-b"}, 10)
}

func testOverwrite(t *testing.T, newIndex newIndexFunc) {
	idx := newIndex(t, contractDim)
	f := newFixture(200, 0)
	f.load(t, idx)
	// New vector and payload for one point, payload only for another.
	moved := f.byID["j-0007"]
	moved.Vector = f.randomVector()
	moved.Payload.OrganizationID = "o-new"
	moved.Payload.DocumentID = "d-new"
	relabeled := f.byID["j-0011"]
	relabeled.Payload.Decision = "endorse"
	for _, p := range []vector.Point{moved, relabeled} {
		f.byID[p.ID] = p
	}
	if err := idx.Upsert(context.Background(), moved, relabeled); err != nil {
		t.Fatal(err)
	}
	f.check(t, idx, moved.Vector, wsA(), 5)
	f.check(t, idx, moved.Vector, vector.Filter{WorkspaceID: "ws-a", OrganizationID: "o-new"}, 5)
	f.check(t, idx, f.randomVector(), vector.Filter{WorkspaceID: "ws-a", OrganizationID: "o1"}, 100)
	f.check(t, idx, relabeled.Vector, vector.Filter{WorkspaceID: "ws-a", Decisions: []string{"endorse"}}, 5)
	f.check(t, idx, relabeled.Vector, vector.Filter{WorkspaceID: "ws-a", Decisions: []string{"comment"}}, 70)
}

func testDelete(t *testing.T, newIndex newIndexFunc) {
	idx := newIndex(t, contractDim)
	f := newFixture(200, 20)
	f.load(t, idx)
	gone := []string{"j-0000", "j-0001", "j-0150", "no-such-id"}
	if err := idx.Delete(context.Background(), gone...); err != nil {
		t.Fatal(err)
	}
	q := f.byID["j-0150"].Vector
	for _, id := range gone {
		delete(f.byID, id)
	}
	f.check(t, idx, q, wsA(), 10)
	f.check(t, idx, q, vector.Filter{WorkspaceID: "ws-a", DocumentID: "d0"}, 30)
	if err := idx.Delete(context.Background()); err != nil {
		t.Errorf("Delete with no ids: %v", err)
	}
	// A deleted ID can come back.
	back := vector.Point{ID: "j-0150", Vector: q, Payload: vector.Payload{WorkspaceID: "ws-a", DocumentID: "d9"}}
	if err := idx.Upsert(context.Background(), back); err != nil {
		t.Fatal(err)
	}
	f.byID[back.ID] = back
	f.check(t, idx, q, wsA(), 3)
}

func testFilterFields(t *testing.T, newIndex newIndexFunc) {
	idx := newIndex(t, contractDim)
	f := newFixture(300, 100)
	f.load(t, idx)
	filters := []vector.Filter{
		{WorkspaceID: "ws-a", OrganizationID: "o2"},
		{WorkspaceID: "ws-a", DocumentID: "d3"},
		{WorkspaceID: "ws-a", Decisions: []string{"approved", "rejected"}},
		{WorkspaceID: "ws-a", Decisions: []string{"resolve", "unknown-decision"}},
		{WorkspaceID: "ws-a", Decisions: []string{"comment", "comment"}},
		{WorkspaceID: "ws-a", JudgeType: "agent"},
		{WorkspaceID: "ws-a", ContentType: "code"},
		{WorkspaceID: "ws-a", ReviewerID: "r-rare"},
		{WorkspaceID: "ws-a", AnnotationID: "a17"},
		{WorkspaceID: "ws-a", ExcludeDocumentIDs: []string{"d1", "d2", "d3"}},
		{WorkspaceID: "ws-a", CreatedFrom: baseTime + 50_000, CreatedTo: baseTime + 90_000},
		{WorkspaceID: "ws-a", CreatedFrom: baseTime + 250_000},
		{WorkspaceID: "ws-a", CreatedTo: baseTime + 20_000},
		{WorkspaceID: "ws-a", OrganizationID: "o1", JudgeType: "user", ContentType: "text",
			ExcludeDocumentIDs: []string{"d4"}, CreatedFrom: baseTime + 10_000},
		{WorkspaceID: "ws-a", OrganizationID: "no-such-org"},
		{WorkspaceID: "ws-a", Decisions: []string{"no-such-decision"}},
	}
	for _, flt := range filters {
		f.check(t, idx, f.randomVector(), flt, 10)
		f.check(t, idx, f.randomVector(), flt, 1000)
	}
}

// testLimitHonoured: with the query right next to non-matching points,
// the filter must still be applied inside the search, so limit matching
// hits come back whenever that many exist.
func testLimitHonoured(t *testing.T, newIndex newIndexFunc) {
	idx := newIndex(t, contractDim)
	f := newFixture(300, 0)
	f.load(t, idx)
	near := f.byID["j-0000"].Vector // reviewer r0, not r-rare
	f.check(t, idx, near, vector.Filter{WorkspaceID: "ws-a", ReviewerID: "r-rare"}, 10)
	f.check(t, idx, near, vector.Filter{WorkspaceID: "ws-a", ReviewerID: "r-rare"}, 12)
	f.check(t, idx, near, vector.Filter{WorkspaceID: "ws-a", ContentType: "table"}, 60)
	f.check(t, idx, near, vector.Filter{WorkspaceID: "ws-a", CreatedFrom: baseTime + 280_000}, 15)
	hits, err := idx.Search(context.Background(), near, vector.Filter{WorkspaceID: "ws-a", ReviewerID: "r-rare"}, 50)
	if err != nil || len(hits) != 12 {
		t.Errorf("limit above the match count: %d hits (%v), want all 12", len(hits), err)
	}
}

func testOrdering(t *testing.T, newIndex newIndexFunc) {
	idx := newIndex(t, contractDim)
	f := newFixture(150, 0)
	f.load(t, idx)
	target := f.byID["j-0042"]
	hits, err := idx.Search(context.Background(), target.Vector, wsA(), 20)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 20 || hits[0].ID != target.ID || math.Abs(float64(hits[0].Score)-1) > 1e-3 {
		t.Fatalf("the point itself should come first with score 1, got %+v", hits[:1])
	}
	for i := 1; i < len(hits); i++ {
		if hits[i].Score > hits[i-1].Score {
			t.Errorf("hit %d score %v above hit %d score %v", i, hits[i].Score, i-1, hits[i-1].Score)
		}
	}
	// Scaling the query does not change cosine similarity.
	scaled := slices.Clone(target.Vector)
	for i := range scaled {
		scaled[i] *= 7.5
	}
	f.check(t, idx, scaled, wsA(), 20)
}

func testIsolation(t *testing.T, newIndex newIndexFunc) {
	idx := newIndex(t, contractDim)
	f := newFixture(100, 100)
	f.load(t, idx)
	// A ws-b twin of a ws-a point: identical vector, must never cross.
	twin := f.byID["j-0005"]
	twin.ID, twin.Payload.WorkspaceID = "twin", "ws-b"
	if err := idx.Upsert(context.Background(), twin); err != nil {
		t.Fatal(err)
	}
	f.byID[twin.ID] = twin
	for _, flt := range []vector.Filter{wsA(), {WorkspaceID: "ws-b"}, {WorkspaceID: "ws-b", OrganizationID: "o3"}} {
		f.check(t, idx, twin.Vector, flt, 1000)
	}
	hits, err := idx.Search(context.Background(), twin.Vector, vector.Filter{WorkspaceID: "ws-none"}, 10)
	if err != nil || len(hits) != 0 {
		t.Errorf("unknown workspace: %v hits, err %v", len(hits), err)
	}
	if n, err := idx.Count(context.Background(), vector.Filter{WorkspaceID: "ws-none"}); err != nil || n != 0 {
		t.Errorf("unknown workspace count: %d, %v", n, err)
	}
}

func testInvalid(t *testing.T, newIndex newIndexFunc) {
	idx := newIndex(t, contractDim)
	ctx := context.Background()
	good := make([]float32, contractDim)
	good[0] = 1
	tests := []struct {
		name string
		call func() error
	}{
		{"search without workspace", func() error { _, err := idx.Search(ctx, good, vector.Filter{}, 10); return err }},
		{"search with zero limit", func() error { _, err := idx.Search(ctx, good, wsA(), 0); return err }},
		{"search with wrong dimension", func() error { _, err := idx.Search(ctx, good[:5], wsA(), 10); return err }},
		{"search with reversed dates", func() error {
			_, err := idx.Search(ctx, good, vector.Filter{WorkspaceID: "ws-a", CreatedFrom: 10, CreatedTo: 5}, 10)
			return err
		}},
		{"count without workspace", func() error { _, err := idx.Count(ctx, vector.Filter{}); return err }},
		{"upsert without id", func() error {
			return idx.Upsert(ctx, vector.Point{Vector: good, Payload: vector.Payload{WorkspaceID: "ws-a"}})
		}},
		{"upsert without workspace", func() error { return idx.Upsert(ctx, vector.Point{ID: "x", Vector: good}) }},
		{"upsert with wrong dimension", func() error {
			return idx.Upsert(ctx, vector.Point{ID: "x", Vector: good[:3], Payload: vector.Payload{WorkspaceID: "ws-a"}})
		}},
		{"upsert with NaN", func() error {
			bad := slices.Clone(good)
			bad[1] = float32(math.NaN())
			return idx.Upsert(ctx, vector.Point{ID: "x", Vector: bad, Payload: vector.Payload{WorkspaceID: "ws-a"}})
		}},
	}
	for _, tt := range tests {
		if err := tt.call(); !errors.Is(err, vector.ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", tt.name, err)
		}
	}
	if n, err := idx.Count(ctx, wsA()); err != nil || n != 0 {
		t.Errorf("rejected upserts must change nothing: count %d, %v", n, err)
	}
}
