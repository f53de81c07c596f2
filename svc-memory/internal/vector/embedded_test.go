package vector

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
)

func mustEmbedded(t *testing.T, opts Options) *Embedded {
	t.Helper()
	e, err := NewEmbedded(opts)
	if err != nil {
		t.Fatalf("NewEmbedded: %v", err)
	}
	return e
}

func mustUpsert(t *testing.T, e *Embedded, pts ...Point) {
	t.Helper()
	if err := e.Upsert(context.Background(), pts...); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
}

func TestGraphAppearsAtThreshold(t *testing.T) {
	t.Parallel()
	e := mustEmbedded(t, Options{Dim: 16, ExactThreshold: 100})
	pts := synthPoints(clustered(150, 16, 5, 1), "ws", 3)
	mustUpsert(t, e, pts[:99]...)
	if e.Stats().Graph {
		t.Fatal("graph built below the threshold")
	}
	mustUpsert(t, e, pts[99:]...)
	if s := e.Stats(); !s.Graph || s.Live != 150 {
		t.Fatalf("stats %+v, want a graph over 150 points", s)
	}
}

func TestReupsertKeepsNodeUnlessVectorChanges(t *testing.T) {
	t.Parallel()
	e := mustEmbedded(t, Options{Dim: 16, ExactThreshold: 10})
	vecs := clustered(60, 16, 3, 2)
	pts := synthPoints(vecs, "ws", 3)
	mustUpsert(t, e, pts...)
	mustUpsert(t, e, pts...) // same vectors: payload-only path
	if s := e.Stats(); s.Tombstones != 0 || s.Live != 60 {
		t.Fatalf("after identical re-upsert: %+v", s)
	}
	moved := pts[4]
	moved.Vector = vecs[40]
	mustUpsert(t, e, moved)
	if s := e.Stats(); s.Tombstones != 1 || s.Live != 60 {
		t.Fatalf("after a vector change: %+v, want 1 tombstone", s)
	}
	hits, err := e.Search(context.Background(), vecs[40], Filter{WorkspaceID: "ws"}, 2)
	if err != nil || len(hits) != 2 || hits[0].Score < 0.999 || hits[1].Score < 0.999 {
		t.Fatalf("both points with the same vector should score 1: %+v %v", hits, err)
	}
}

func TestZeroVectorScoresZero(t *testing.T) {
	t.Parallel()
	e := mustEmbedded(t, Options{Dim: 4})
	mustUpsert(t, e, Point{ID: "empty", Vector: make([]float32, 4), Payload: Payload{WorkspaceID: "ws"}})
	hits, err := e.Search(context.Background(), []float32{1, 0, 0, 0}, Filter{WorkspaceID: "ws"}, 5)
	if err != nil || len(hits) != 1 || hits[0].Score != 0 {
		t.Fatalf("hits %+v, err %v", hits, err)
	}
}

func TestClosedIndex(t *testing.T) {
	t.Parallel()
	e := mustEmbedded(t, Options{Dim: 4})
	e.Close()
	ctx := context.Background()
	if err := e.Upsert(ctx, Point{ID: "x", Vector: []float32{1, 0, 0, 0}, Payload: Payload{WorkspaceID: "w"}}); !errors.Is(err, ErrClosed) {
		t.Errorf("Upsert: %v", err)
	}
	if _, err := e.Search(ctx, []float32{1, 0, 0, 0}, Filter{WorkspaceID: "w"}, 1); !errors.Is(err, ErrClosed) {
		t.Errorf("Search: %v", err)
	}
	if _, err := e.Count(ctx, Filter{WorkspaceID: "w"}); !errors.Is(err, ErrClosed) {
		t.Errorf("Count: %v", err)
	}
	if err := e.Delete(ctx, "x"); !errors.Is(err, ErrClosed) {
		t.Errorf("Delete: %v", err)
	}
}

func TestNewEmbeddedValidates(t *testing.T) {
	t.Parallel()
	for _, o := range []Options{{}, {Dim: -1}, {Dim: 8, M: 1}, {Dim: 8, M: 500}} {
		if _, err := NewEmbedded(o); !errors.Is(err, ErrInvalid) {
			t.Errorf("%+v: err = %v, want ErrInvalid", o, err)
		}
	}
}

// Searches, upserts and deletes at once; meaningful under -race.
func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	e := mustEmbedded(t, Options{Dim: 16, ExactThreshold: 200})
	vecs := clustered(1200, 16, 8, 4)
	pts := synthPoints(vecs, "ws", 4)
	mustUpsert(t, e, pts[:300]...)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	wg.Go(func() {
		for i := 300; i < len(pts); i += 50 {
			if err := e.Upsert(ctx, pts[i:i+50]...); err != nil {
				errs <- err
				return
			}
			if err := e.Delete(ctx, pts[i-300].ID); err != nil {
				errs <- err
				return
			}
		}
	})
	for w := range 3 {
		wg.Go(func() {
			for i := range 200 {
				f := Filter{WorkspaceID: "ws", OrganizationID: fmt.Sprintf("org%d", (i+w)%4)}
				if i%2 == 0 {
					f = Filter{WorkspaceID: "ws"}
				}
				if _, err := e.Search(ctx, vecs[(i*7+w)%len(vecs)], f, 10); err != nil {
					errs <- err
					return
				}
				if _, err := e.Count(ctx, f); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got, want := e.Len(), len(pts)-(len(pts)-300)/50; got != want {
		t.Errorf("Len = %d, want %d", got, want)
	}
}

// snapshotIndex builds an index with a graph, tombstones and several
// workspaces, and saves it.
func snapshotIndex(t *testing.T, dir string) (*Embedded, [][]float32) {
	t.Helper()
	path := filepath.Join(dir, "index.snap")
	e := mustEmbedded(t, Options{Dim: 24, ExactThreshold: 300, SnapshotPath: path})
	vecs := clustered(1100, 24, 10, 6)
	mustUpsert(t, e, synthPoints(vecs[:700], "ws-a", 5)...)
	mustUpsert(t, e, synthPoints(vecs[700:1000], "ws-b", 5)...)
	moved := synthPoints(vecs[:3], "ws-a", 5)
	moved[0].Vector = vecs[1050] // tombstone + new node
	mustUpsert(t, e, moved[0])
	if err := e.Delete(context.Background(), "p10", "p11"); err != nil {
		t.Fatal(err)
	}
	if err := e.Snapshot(context.Background()); err != nil {
		t.Fatalf("Snapshot: %v", err)
	}
	return e, vecs[1000:]
}

func TestSnapshotRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	orig, queries := snapshotIndex(t, dir)
	loaded := mustEmbedded(t, Options{Dim: 24, ExactThreshold: 300, SnapshotPath: filepath.Join(dir, "index.snap")})
	if loaded.SnapshotTime().IsZero() {
		t.Error("SnapshotTime not set")
	}
	if orig.Stats() != loaded.Stats() {
		t.Fatalf("stats: original %+v, loaded %+v", orig.Stats(), loaded.Stats())
	}
	ctx := context.Background()
	filters := []Filter{{WorkspaceID: "ws-a"}, {WorkspaceID: "ws-b", OrganizationID: "org2"},
		{WorkspaceID: "ws-a", ContentType: "code", CreatedFrom: 100}}
	for _, f := range filters {
		for _, q := range queries[:20] {
			a, err1 := orig.Search(ctx, q, f, 10)
			b, err2 := loaded.Search(ctx, q, f, 10)
			if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) {
				t.Fatalf("filter %+v: results differ after reload (%v, %v)", f, err1, err2)
			}
		}
		n1, _ := orig.Count(ctx, f)
		n2, _ := loaded.Count(ctx, f)
		if n1 != n2 {
			t.Errorf("filter %+v: count %d vs %d", f, n1, n2)
		}
	}
	// The loaded graph keeps growing.
	mustUpsert(t, loaded, Point{ID: "new", Vector: queries[50], Payload: Payload{WorkspaceID: "ws-c"}})
	if hits, _ := loaded.Search(ctx, queries[50], Filter{WorkspaceID: "ws-c"}, 1); len(hits) != 1 || hits[0].ID != "new" {
		t.Errorf("insert after load: %+v", hits)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("snapshot dir holds %d entries, want only the snapshot (no temp files)", len(entries))
	}
}

func TestSnapshotSmallIndexWithoutGraph(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "s")
	e := mustEmbedded(t, Options{Dim: 8, SnapshotPath: path})
	mustUpsert(t, e, synthPoints(clustered(30, 8, 2, 1), "ws", 2)...)
	if err := e.Snapshot(context.Background()); err != nil {
		t.Fatal(err)
	}
	loaded := mustEmbedded(t, Options{Dim: 8, SnapshotPath: path})
	if loaded.Len() != 30 || loaded.Stats().Graph {
		t.Fatalf("loaded %+v", loaded.Stats())
	}
}

func TestSnapshotRejectsDamage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	snapshotIndex(t, dir)
	path := filepath.Join(dir, "index.snap")
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	flipped := append([]byte(nil), good...)
	flipped[len(flipped)/2] ^= 0x40
	tests := []struct {
		name string
		data []byte
		dim  int
	}{
		{"flipped byte", flipped, 24},
		{"truncated", good[:len(good)-100], 24},
		{"cut in header", good[:10], 24},
		{"not a snapshot", []byte("hello world, this is not an index"), 24},
		{"other dimension", good, 32},
	}
	for _, tt := range tests {
		p := filepath.Join(dir, "bad-"+tt.name)
		if err := os.WriteFile(p, tt.data, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := NewEmbedded(Options{Dim: tt.dim, SnapshotPath: p}); !errors.Is(err, ErrBadSnapshot) {
			t.Errorf("%s: err = %v, want ErrBadSnapshot", tt.name, err)
		}
	}
}

func TestSnapshotNeedsPath(t *testing.T) {
	t.Parallel()
	e := mustEmbedded(t, Options{Dim: 4})
	if err := e.Snapshot(context.Background()); !errors.Is(err, ErrInvalid) {
		t.Fatalf("err = %v, want ErrInvalid", err)
	}
}

func TestSearchPathChoice(t *testing.T) {
	t.Parallel()
	// 40 000 points in one workspace: 4 content types, 400 organizations.
	// The choice reads the counts and the graph's shape, not its links, so
	// the points are stored without linking them (that is TestHNSWRecall's
	// and the benchmark's work) and the index gets an unlinked graph.
	e := mustEmbedded(t, Options{Dim: 16, ExactThreshold: 1 << 30, EfSearch: 16})
	vecs := clustered(40000, 16, 20, 12)
	mustUpsert(t, e, synthPoints(vecs, "ws", 400)...)
	if e.g != nil {
		t.Fatal("a graph was linked below the threshold")
	}
	e.opts.ExactThreshold = 500
	e.g = newHNSW(e.st, e.opts.M, e.opts.EfConstruction)
	tests := []struct {
		name string
		f    Filter
		scan bool
	}{
		{"whole workspace walks the graph", Filter{WorkspaceID: "ws"}, false},
		{"one organization (100 points) is scanned", Filter{WorkspaceID: "ws", OrganizationID: "org7"}, true},
		{"a quarter of the points walks the graph", Filter{WorkspaceID: "ws", ContentType: "code"}, false},
		{"a narrow date range is estimated small and scanned", Filter{WorkspaceID: "ws", CreatedFrom: 100, CreatedTo: 300}, true},
		// 2% share: the walk would expand ~800 nodes x 32 neighbours
		// x walkCost, more than scoring the 40 000 candidates.
		{"a selective date range over a large list is scanned", Filter{WorkspaceID: "ws", CreatedFrom: 1000, CreatedTo: 1800}, true},
	}
	for _, tt := range tests {
		m, _ := e.st.compile(tt.f)
		if got := e.useScan(e.st.plan(&m), &m, 10); got != tt.scan {
			t.Errorf("%s: useScan = %v, want %v", tt.name, got, tt.scan)
		}
	}
}
