package vector

import (
	"context"
	"testing"
)

// Parallel inserts (striped locks, atomic neighbour lists) must build a
// consistent graph of the same quality as a sequential build; run with
// -race to check the synchronisation.
func TestParallelBuildConsistentAndAccurate(t *testing.T) {
	t.Parallel()
	n := 6000
	if testing.Short() {
		n = 2000
	}
	vecs := clustered(n+50, 48, 30, 11)
	e, err := NewEmbedded(Options{Dim: 48, ExactThreshold: 500, Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	// Several upserts so that both the threshold build and incremental
	// parallel inserts run.
	pts := synthPoints(vecs[:n], "ws", 10)
	for i := 0; i < n; i += 1500 {
		if err := e.Upsert(context.Background(), pts[i:min(i+1500, n)]...); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.g.check(); err != nil {
		t.Fatalf("graph check: %v", err)
	}
	for x := range e.st.size() {
		if got := e.g.list(uint32(x), 0)[0]; got == 0 {
			t.Fatalf("node %d has no neighbours", x)
		}
	}
	if r := recallAt(t, e, vecs[n:], Filter{WorkspaceID: "ws"}, 10); r < 0.95 {
		t.Errorf("recall@10 = %.3f after a parallel build, want >= 0.95", r)
	}
}
