package vector

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"
)

// lockStripes node locks guard neighbour lists during parallel inserts; a
// goroutine holds at most one at a time, so they cannot deadlock.
const lockStripes = 1 << 14

// maxLevel caps the layer count; with M=16 a level above 6 has
// probability ~1e-8 per node.
const maxLevelCap = 15

// hnsw is a Hierarchical Navigable Small World graph (Malkov & Yashunin,
// 2016) over the store's vectors, addressed by node number. Distances are
// -dot on unit vectors. Inserts may run in parallel (striped node locks);
// searches run under the index read lock with no insert in progress, so
// they read neighbour lists without locking.
type hnsw struct {
	st       *store
	m, m0    int // max neighbours on upper layers / on layer 0
	efC      int
	levelMul float64

	links0 []uint32   // node n: [n*(m0+1)] = count, then m0 slots
	upper  [][]uint32 // node n of level L>0: L blocks of count + m slots (layer 1 first)
	levels []uint8

	entryMu  sync.Mutex
	entry    uint32
	maxLevel int // -1 while empty

	locks [lockStripes]sync.Mutex
}

func newHNSW(st *store, m, efC int) *hnsw {
	return &hnsw{st: st, m: m, m0: 2 * m, efC: efC, levelMul: 1 / math.Log(float64(m)), maxLevel: -1}
}

// grow makes room for nodes [0, n). Callers hold the index write lock and
// no insert runs concurrently.
func (g *hnsw) grow(n int) {
	if have := len(g.levels); n > have {
		g.links0 = append(g.links0, make([]uint32, (n-have)*(g.m0+1))...)
		g.upper = append(g.upper, make([][]uint32, n-have)...)
		g.levels = append(g.levels, make([]uint8, n-have)...)
	}
}

// randomLevel draws the node's top layer from the exponential distribution
// of the paper, seeded by the node number so builds are reproducible.
func (g *hnsw) randomLevel(n uint32) int {
	x := uint64(n) + 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	x ^= x >> 31
	u := (float64(x>>11) + 0.5) / (1 << 53)
	return min(int(-math.Log(u)*g.levelMul), maxLevelCap)
}

// list returns node n's neighbour block on layer l: [count, slots...].
func (g *hnsw) list(n uint32, l int) []uint32 {
	if l == 0 {
		off := int(n) * (g.m0 + 1)
		return g.links0[off : off+g.m0+1 : off+g.m0+1]
	}
	off := (l - 1) * (g.m + 1)
	return g.upper[n][off : off+g.m+1 : off+g.m+1]
}

// neighbours returns n's neighbours on layer l. During parallel inserts
// (locked) it copies them into sc.buf with atomic loads instead of taking the
// node lock: a concurrent update may show a mix of old and new entries,
// every one of them a valid node, which only affects which nodes this walk
// visits. Writers hold the node lock and store atomically.
func (g *hnsw) neighbours(n uint32, l int, locked bool, sc *searchCtx) []uint32 {
	blk := g.list(n, l)
	if !locked {
		return blk[1 : 1+blk[0]]
	}
	cnt := min(int(atomic.LoadUint32(&blk[0])), len(blk)-1)
	buf := sc.buf[:0]
	for i := 1; i <= cnt; i++ {
		buf = append(buf, atomic.LoadUint32(&blk[i]))
	}
	sc.buf = buf
	return buf
}

// writeList replaces a neighbour block; the caller holds the node lock.
func writeList(blk []uint32, sel []scored) {
	for i, s := range sel {
		atomic.StoreUint32(&blk[1+i], s.n)
	}
	atomic.StoreUint32(&blk[0], uint32(len(sel)))
}

func (g *hnsw) probeOf(n uint32) probe { return g.st.probeOf(n) }

// dist is the approximate -cosine between the probe and node x.
func (g *hnsw) dist(p probe, x uint32) float32 {
	return -p.scale * g.st.qscale[x] * float32(dotI8(p.codes, g.st.qvec(x), g.st.qsum[x]))
}

func (g *hnsw) distMany(p probe, ids []uint32, sc *searchCtx) []float32 {
	return g.st.distMany(p, ids, sc)
}

// insert links node n (whose vector is in the store) into the graph.
func (g *hnsw) insert(n uint32, sc *searchCtx, locked bool) {
	level := g.randomLevel(n)
	g.levels[n] = uint8(level)
	if level > 0 {
		g.upper[n] = make([]uint32, level*(g.m+1))
	}
	g.entryMu.Lock()
	ep, top := g.entry, g.maxLevel
	if top < 0 {
		g.entry, g.maxLevel = n, level
		g.entryMu.Unlock()
		return
	}
	if level <= top {
		g.entryMu.Unlock()
	} else {
		// A new top node: keep others from entering the graph through a
		// half-linked entry point (as hnswlib does).
		defer g.entryMu.Unlock()
	}
	q := g.probeOf(n)
	cur := scored{d: g.dist(q, ep), n: ep}
	for l := top; l > level; l-- {
		cur = g.greedy(q, cur, l, locked, sc)
	}
	eps := append(sc.eps[:0], cur)
	for l := min(level, top); l >= 0; l-- {
		found := g.searchLayer(sc, q, eps, g.efC, l, nil, locked)
		g.rescore(n, found)
		maxM := g.m
		if l == 0 {
			maxM = g.m0
		}
		sel := g.selectNeighbours(found, g.m, sc.sel[:0])
		sc.sel = sel
		g.setLinks(n, l, sel)
		for _, s := range sel {
			g.addLink(s.n, n, s.d, l, maxM, sc)
		}
		eps = append(eps[:0], found...)
	}
	sc.eps = eps
	if level > top {
		g.entry, g.maxLevel = n, level
	}
}

// rescore replaces the int8 distances of the candidates found for node n
// by half-precision ones: the walk may be approximate, but which links a
// node gets (selectNeighbours, addLink) is decided on the vectors
// themselves, or the graph's quality would carry the quantisation error.
func (g *hnsw) rescore(n uint32, found []scored) {
	v := g.st.vec(n)
	for i := range found {
		found[i].d = g.exact(v, found[i].n)
	}
	sortClosestFirst(found)
}

// exact is -cosine between a stored vector and node x, in half precision.
func (g *hnsw) exact(v []uint16, x uint32) float32 { return -dotHalves(v, g.st.vec(x)) }

// greedy walks layer l towards q and returns the closest node it reaches.
func (g *hnsw) greedy(q probe, cur scored, l int, locked bool, sc *searchCtx) scored {
	for changed := true; changed; {
		changed = false
		nb := g.neighbours(cur.n, l, locked, sc)
		for i, d := range g.distMany(q, nb, sc) {
			if d < cur.d {
				cur, changed = scored{d: d, n: nb[i]}, true
			}
		}
	}
	return cur
}

// selectNeighbours is the paper's heuristic (algorithm 4): walking the
// candidates closest first, keep one only if it is closer to the base than
// to every neighbour kept so far. This keeps links spread across
// directions, which clustered data needs. cands must be sorted closest
// first, with half-precision distances (rescore).
func (g *hnsw) selectNeighbours(cands []scored, m int, out []scored) []scored {
	if len(cands) <= m {
		return append(out, cands...)
	}
	for _, c := range cands {
		cv := g.st.vec(c.n)
		good := true
		for _, s := range out {
			if g.exact(cv, s.n) < c.d {
				good = false
				break
			}
		}
		if good {
			out = append(out, c)
			if len(out) == m {
				break
			}
		}
	}
	return out
}

func (g *hnsw) setLinks(n uint32, l int, sel []scored) {
	mu := &g.locks[n&(lockStripes-1)]
	mu.Lock()
	writeList(g.list(n, l), sel)
	mu.Unlock()
}

// addLink adds the reverse edge s -> n; a full list is re-pruned with the
// heuristic over its old neighbours plus n.
func (g *hnsw) addLink(s, n uint32, d float32, l, maxM int, sc *searchCtx) {
	mu := &g.locks[s&(lockStripes-1)]
	mu.Lock()
	defer mu.Unlock()
	blk := g.list(s, l)
	cnt := int(blk[0])
	if cnt < maxM {
		atomic.StoreUint32(&blk[1+cnt], n)
		atomic.StoreUint32(&blk[0], uint32(cnt+1))
		return
	}
	cands := append(sc.prune[:0], scored{d: d, n: n})
	sv := g.st.vec(s)
	for _, x := range blk[1 : 1+cnt] {
		cands = append(cands, scored{d: g.exact(sv, x), n: x})
	}
	slices.SortFunc(cands, byDistance)
	sel := g.selectNeighbours(cands, maxM, sc.sel2[:0])
	writeList(blk, sel)
	sc.prune, sc.sel2 = cands, sel
}

// insertAll links the given nodes using up to workers goroutines.
func (g *hnsw) insertAll(nodes []uint32, workers int) {
	if workers <= 1 || len(nodes) < 64 {
		sc := getCtx()
		for _, n := range nodes {
			g.insert(n, sc, false)
		}
		putCtx(sc)
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			sc := getCtx()
			defer putCtx(sc)
			for {
				i := next.Add(1) - 1
				if i >= int64(len(nodes)) {
					return
				}
				g.insert(nodes[i], sc, true)
			}
		})
	}
	wg.Wait()
}
