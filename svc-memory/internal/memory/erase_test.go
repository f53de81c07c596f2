package memory_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/opencollab/backend/svc-memory/internal/embed"
	"github.com/opencollab/backend/svc-memory/internal/memory"
)

// reviewers is a Store holding record id → reviewer of one workspace;
// the erasure needs only these methods (the embedded nil Store panics
// on any other).
type reviewers struct {
	memory.Store
	ws   string
	recs map[string]string
}

func (r *reviewers) ReviewedBy(_ context.Context, ws string, users []string) ([]string, error) {
	var out []string
	for id, u := range r.recs {
		if ws == r.ws && slices.Contains(users, u) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out, nil
}

func (r *reviewers) MarkReviewersErased(context.Context, string, []string, int64) error { return nil }

func (r *reviewers) DeleteJudgment(_ context.Context, ws, id string, _ int64) (bool, error) {
	_, ok := r.recs[id]
	delete(r.recs, id)
	return ok && ws == r.ws, nil
}

// deletions records deleted vector ids; failing makes Delete fail.
type deletions struct {
	memory.Index
	ids     []string
	failing bool
}

func (d *deletions) Delete(_ context.Context, ids ...string) error {
	if d.failing {
		return errors.New("index unavailable")
	}
	d.ids = append(d.ids, ids...)
	return nil
}

// TestEraseReviewersDeletesJudgmentsAndVectors: the reviewer's judgments go
// with their vectors in both indexes; another reviewer's stay; while an
// index fails nothing is deleted, so the job's retry finds the judgments.
func TestEraseReviewersDeletesJudgmentsAndVectors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := &reviewers{ws: "ws1", recs: map[string]string{"r1": "ann", "r2": "ann", "r3": "bob"}}
	review, content := &deletions{failing: true}, &deletions{}
	svc := memory.NewService(memory.Deps{Store: store, Review: review, Content: content, Embedder: embed.NewHashing(16), Model: "hash/16"})

	if n, err := svc.EraseReviewers(ctx, "ws1", []string{"ann"}); err == nil || n != 0 || len(store.recs) != 3 {
		t.Fatalf("with the review index down: erased %d, %v; judgments left %v", n, err, store.recs)
	}
	review.failing = false
	n, err := svc.EraseReviewers(ctx, "ws1", []string{"ann"})
	if err != nil || n != 2 {
		t.Fatalf("erased %d, %v; want 2", n, err)
	}
	if _, left := store.recs["r3"]; !left || len(store.recs) != 1 {
		t.Fatalf("judgments left: %v, want bob's r3", store.recs)
	}
	want := []string{"ws1/r1", "ws1/r2"}
	// The failed pass may have deleted from the content index already.
	content.ids = slices.Compact(content.ids)
	if !slices.Equal(review.ids, want) || !slices.Equal(content.ids, want) {
		t.Fatalf("vectors deleted: review %v, content %v; want %v in both", review.ids, content.ids, want)
	}
	if n, err := svc.EraseReviewers(ctx, "ws1", []string{"ann"}); err != nil || n != 0 {
		t.Fatalf("again: %d, %v; want 0 (idempotent)", n, err)
	}
}
