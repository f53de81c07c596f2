package vector

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"
)

// Defaults for Options; measured in BENCHMARKS.md.
const (
	DefaultExactThreshold = 20000
	DefaultM              = 16
	DefaultEfConstruction = 100
	DefaultEfSearch       = 512
)

// upsertChunk bounds how long one Upsert holds the write lock, so searches
// interleave with a bulk load.
const upsertChunk = 2048

// Options configures NewEmbedded. Only Dim is required.
type Options struct {
	// Dim is the vector length; every vector must have it.
	Dim int
	// ExactThreshold: a search whose filter candidates (the smallest
	// matching payload list) number at most this many scans them all (int8
	// scores, then the best 4*limit+16 re-scored in float32: exact in
	// practice). Larger sets use the HNSW graph, which is built once the
	// index holds this many points, unless a cost estimate says a
	// selective filter would make the graph walk dearer than the scan.
	// Default 20 000.
	ExactThreshold int
	// SnapshotPath, when set, is loaded by NewEmbedded if the file exists
	// and written by Snapshot.
	SnapshotPath string
	// M is the HNSW neighbour count per node (2M on the bottom layer).
	// Default 16 (12 builds ~1.4x faster at 100k with the same recall, but
	// at 1M its recall@10 drops to 0.92 against 0.97; BENCHMARKS.md).
	M int
	// EfConstruction is the candidate list size while linking a new node;
	// higher builds a better graph, more slowly. Default 100 (64 builds
	// ~1.5x faster but needs EfSearch ~384 for the same recall at 1M).
	EfConstruction int
	// EfSearch is the candidate list size of a query (at least the limit).
	// Default 512: recall@10 0.9825 at 1M points, p50 0.68 ms; 384 gave
	// 0.979-0.980, 256 0.970 (BENCHMARKS.md).
	EfSearch int
	// Workers is the number of goroutines inserting into the graph during
	// bulk upserts. Default GOMAXPROCS.
	Workers int
}

func (o *Options) defaults() error {
	if o.Dim <= 0 {
		return fmt.Errorf("%w: dimension must be positive, got %d", ErrInvalid, o.Dim)
	}
	setDefault := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	setDefault(&o.ExactThreshold, DefaultExactThreshold)
	setDefault(&o.M, DefaultM)
	setDefault(&o.EfConstruction, DefaultEfConstruction)
	setDefault(&o.EfSearch, DefaultEfSearch)
	setDefault(&o.Workers, runtime.GOMAXPROCS(0))
	if o.M < 2 || o.M > 128 {
		return fmt.Errorf("%w: M must be in [2, 128], got %d", ErrInvalid, o.M)
	}
	return nil
}

// Embedded is the in-process Index. It keeps everything in memory; with
// SnapshotPath it can be saved and reloaded so a restart does not rebuild
// the graph. Safe for concurrent use: searches share a read lock, writes
// take the write lock in chunks.
type Embedded struct {
	mu       sync.RWMutex
	opts     Options
	st       *store
	g        *hnsw // nil until the index reaches ExactThreshold points
	closed   bool
	loadedAt time.Time // when the loaded snapshot was written; zero if none
}

var _ Index = (*Embedded)(nil)

// NewEmbedded returns an empty index, or the one saved at
// opts.SnapshotPath when that file exists. A snapshot that cannot be used
// gives an error wrapping ErrBadSnapshot (delete it and rebuild).
func NewEmbedded(opts Options) (*Embedded, error) {
	if err := opts.defaults(); err != nil {
		return nil, err
	}
	e := &Embedded{opts: opts, st: newStore(opts.Dim)}
	if opts.SnapshotPath == "" {
		return e, nil
	}
	f, err := os.Open(opts.SnapshotPath)
	if errors.Is(err, os.ErrNotExist) {
		return e, nil
	}
	if err != nil {
		return nil, fmt.Errorf("vector: open snapshot: %w", err)
	}
	defer f.Close()
	if err := e.load(f); err != nil {
		return nil, err
	}
	return e, nil
}

// Len is the number of live points.
func (e *Embedded) Len() int {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.st.live
}

// SnapshotTime is when the snapshot NewEmbedded loaded was taken (zero if
// the index started empty). Points changed in the store of record after
// that time should be upserted or deleted again.
func (e *Embedded) SnapshotTime() time.Time { return e.loadedAt }

// Close frees the index; later calls return ErrClosed.
func (e *Embedded) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.closed = true
	e.st, e.g = newStore(e.opts.Dim), nil
	return nil
}

// Upsert implements Index. The whole batch is validated first; it is then
// applied in chunks, releasing the write lock between them.
func (e *Embedded) Upsert(ctx context.Context, points ...Point) error {
	if err := validatePoints(points, e.opts.Dim); err != nil {
		return err
	}
	for start := 0; start < len(points); start += upsertChunk {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := e.upsertChunk(points[start:min(start+upsertChunk, len(points))]); err != nil {
			return err
		}
	}
	return nil
}

func (e *Embedded) upsertChunk(points []Point) error {
	vecs := make([][]float32, len(points))
	for i, p := range points {
		vecs[i] = normalized(p.Vector)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return ErrClosed
	}
	var added []uint32
	for i, p := range points {
		if n, ok := e.upsertOne(p, vecs[i]); ok {
			added = append(added, n)
		}
	}
	switch {
	case e.g != nil:
		e.g.grow(e.st.size())
		e.g.insertAll(added, e.opts.Workers)
	case e.st.live >= e.opts.ExactThreshold:
		e.buildGraph()
	}
	return nil
}

// upsertOne stores one point and reports the node to link into the graph,
// if a new one was created. An unchanged vector keeps its node (only the
// payload moves); without a graph a changed vector is overwritten in place;
// with one, the old node becomes a tombstone and a new node is added.
func (e *Embedded) upsertOne(p Point, vec []float32) (uint32, bool) {
	meta := e.st.encode(p.Payload)
	old, exists := e.st.byID[p.ID]
	if exists {
		if e.g == nil || e.st.sameVec(old, vec) {
			e.st.setVec(old, vec)
			e.st.setMeta(old, meta)
			return 0, false
		}
		e.st.remove(old)
	}
	return e.st.add(p.ID, vec, meta), true
}

// buildGraph links every live node into a new graph (the index just
// reached ExactThreshold, or was compacted).
func (e *Embedded) buildGraph() {
	g := newHNSW(e.st, e.opts.M, e.opts.EfConstruction)
	g.grow(e.st.size())
	nodes := make([]uint32, 0, e.st.live)
	for n := range e.st.meta {
		if e.st.meta[n].live() {
			nodes = append(nodes, uint32(n))
		}
	}
	g.insertAll(nodes, e.opts.Workers)
	e.g = g
}

// Delete implements Index.
func (e *Embedded) Delete(ctx context.Context, ids ...string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return ErrClosed
	}
	for _, id := range ids {
		if n, ok := e.st.byID[id]; ok {
			e.st.remove(n)
		}
	}
	return nil
}

// SetEfSearch changes the query beam width (Options.EfSearch) at run time,
// trading latency for recall.
func (e *Embedded) SetEfSearch(ef int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if ef > 0 {
		e.opts.EfSearch = ef
	}
}

// Stats describes the index for logs and metrics.
type Stats struct {
	Live       int  // points that can be found
	Tombstones int  // deleted or replaced nodes still held by the graph
	Graph      bool // whether the HNSW graph exists
}

// Stats returns the current counts.
func (e *Embedded) Stats() Stats {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return Stats{Live: e.st.live, Tombstones: e.st.size() - e.st.live, Graph: e.g != nil}
}
