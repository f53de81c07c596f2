package vector

import (
	"context"
	"testing"
	"time"
)

// recallAt compares the index's answers with exact ones for nq queries.
func recallAt(t testing.TB, e *Embedded, queries [][]float32, f Filter, k int) float64 {
	t.Helper()
	ctx := context.Background()
	hitSum := 0
	for _, q := range queries {
		got, err := e.Search(ctx, q, f, k)
		if err != nil {
			t.Fatal(err)
		}
		want, err := e.SearchExact(ctx, q, f, k)
		if err != nil {
			t.Fatal(err)
		}
		ids := map[string]bool{}
		for _, w := range want {
			ids[w.ID] = true
		}
		for _, h := range got {
			if ids[h.ID] {
				hitSum++
			}
		}
	}
	return float64(hitSum) / float64(k*len(queries))
}

func TestHNSWRecall(t *testing.T) {
	t.Parallel()
	n := 20000
	if testing.Short() {
		n = 5000
	}
	vecs := clustered(n+100, 64, 50, 7)
	e, err := NewEmbedded(Options{Dim: 64, ExactThreshold: 1000})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := e.Upsert(context.Background(), synthPoints(vecs[:n], "ws", 10)...); err != nil {
		t.Fatal(err)
	}
	t.Logf("built %d in %v", n, time.Since(start))
	if !e.Stats().Graph {
		t.Fatal("graph should exist above the threshold")
	}
	queries := vecs[n:]
	if r := recallAt(t, e, queries, Filter{WorkspaceID: "ws"}, 10); r < 0.95 {
		t.Errorf("recall@10 = %.3f, want >= 0.95", r)
	} else {
		t.Logf("recall@10 = %.3f", r)
	}
	if r := recallAt(t, e, queries, Filter{WorkspaceID: "ws", ContentType: "code"}, 10); r < 0.95 {
		t.Errorf("filtered recall@10 = %.3f, want >= 0.95", r)
	} else {
		t.Logf("filtered recall@10 = %.3f", r)
	}
}
