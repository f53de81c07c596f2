package vector

import (
	"slices"
	"sync"
)

// searchCtx is per-goroutine scratch space, pooled so a search allocates
// nothing on the hot path.
type searchCtx struct {
	visit visitSet
	cand  minHeap
	res   maxHeap
	out   []scored
	eps   []scored
	sel   []scored
	sel2  []scored
	prune []scored
	buf   []uint32
	qbuf  []int8
	// distMany and scan scratch
	fresh []uint32
	batch []uint32
	ptrs  []*int8
	sums  []int32
	raw   []int32
	dists []float32
}

// visitSet marks visited nodes with a generation counter, so clearing it
// between searches is O(1).
type visitSet struct {
	marks []uint16
	gen   uint16
}

func (v *visitSet) reset(n int) {
	if len(v.marks) < n {
		v.marks = make([]uint16, n+n/4)
		v.gen = 0
	}
	v.gen++
	if v.gen == 0 {
		clear(v.marks)
		v.gen = 1
	}
}

// first marks x and reports whether it was not yet visited.
func (v *visitSet) first(x uint32) bool {
	if v.marks[x] == v.gen {
		return false
	}
	v.marks[x] = v.gen
	return true
}

var scratch sync.Pool // *searchCtx

func getCtx() *searchCtx {
	if sc, ok := scratch.Get().(*searchCtx); ok {
		return sc
	}
	return &searchCtx{}
}

func putCtx(sc *searchCtx) { scratch.Put(sc) }

// searchLayer is the paper's algorithm 2 on layer l, returning up to ef
// nodes closest first (in sc.out). With a matcher, every node is still
// traversed but only matching nodes are collected, so the walk continues
// through non-matching regions until ef matching nodes are found (the
// filter is applied inside the search, not after it).
func (g *hnsw) searchLayer(sc *searchCtx, q probe, eps []scored, ef, l int, m *matcher, locked bool) []scored {
	sc.visit.reset(len(g.levels))
	cand, res := sc.cand[:0], sc.res[:0]
	for _, e := range eps {
		if !sc.visit.first(e.n) {
			continue
		}
		cand.push(e)
		if m == nil || m.accepts(g.st, e.n) {
			res.offer(e, ef)
		}
	}
	for len(cand) > 0 {
		c := cand.pop()
		if len(res) >= ef && c.d > res.top().d {
			break
		}
		fresh := sc.fresh[:0]
		for _, x := range g.neighbours(c.n, l, locked, sc) {
			if sc.visit.first(x) {
				fresh = append(fresh, x)
			}
		}
		sc.fresh = fresh
		for i, d := range g.distMany(q, fresh, sc) {
			x := fresh[i]
			if len(res) < ef || d < res.top().d {
				cand.push(scored{d: d, n: x})
				if m == nil || m.accepts(g.st, x) {
					res.offer(scored{d: d, n: x}, ef)
				}
			}
		}
	}
	sc.out = append(sc.out[:0], res...)
	sortClosestFirst(sc.out)
	sc.cand, sc.res = cand, res
	return sc.out
}

// search answers a query on the whole graph: greedy descent through the
// upper layers, then a (filtered) ef-wide search on layer 0, all on int8
// codes; the best keep of the ef nodes found are then re-scored on the
// half-precision vectors (the int8 order is close enough that the true
// best few are among them). The result is closest first and is only valid
// until sc is reused.
func (g *hnsw) search(sc *searchCtx, q []float32, ef, keep int, m *matcher) []scored {
	if g.maxLevel < 0 {
		return nil
	}
	p := g.st.probeFor(q, sc)
	cur := scored{d: g.dist(p, g.entry), n: g.entry}
	for l := g.maxLevel; l > 0; l-- {
		cur = g.greedy(p, cur, l, false, sc)
	}
	sc.eps = append(sc.eps[:0], cur)
	found := g.searchLayer(sc, p, sc.eps, ef, 0, m, false)
	found = found[:min(len(found), keep)]
	for i := range found {
		found[i].d = -dotHalf(q, g.st.vec(found[i].n))
	}
	sortClosestFirst(found)
	return found
}

func sortClosestFirst(a []scored) {
	slices.SortFunc(a, byDistance)
}

func byDistance(a, b scored) int {
	switch {
	case a.d < b.d:
		return -1
	case a.d > b.d:
		return 1
	}
	return int(a.n) - int(b.n)
}
