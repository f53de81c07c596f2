package vector

import "context"

// sampleSize is how many candidates are checked against the full filter to
// estimate how many will match (date ranges, exclusions and secondary
// fields are not in the inverted lists).
const sampleSize = 256

// scanBatch is how many candidates one batched int8 kernel call scores.
const scanBatch = 256

// Search implements Index. A small candidate set is scanned; a large one
// goes through the HNSW graph with the filter applied during traversal
// (see useScan for the choice). If the graph walk finds fewer than limit
// matches, a scan settles it, so limit hits come back whenever that many
// points match.
func (e *Embedded) Search(ctx context.Context, query []float32, f Filter, limit int) ([]Hit, error) {
	return e.search(ctx, query, f, limit, false)
}

// SearchExact is Search without the graph and without quantisation: every
// candidate is scored in float32. It gives the ground truth for recall
// measurements; it costs a full pass over the workspace's vectors.
func (e *Embedded) SearchExact(ctx context.Context, query []float32, f Filter, limit int) ([]Hit, error) {
	return e.search(ctx, query, f, limit, true)
}

func (e *Embedded) search(ctx context.Context, query []float32, f Filter, limit int, exact bool) ([]Hit, error) {
	if err := validateSearch(query, f, limit, e.opts.Dim); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	q := normalized(query)
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.closed {
		return nil, ErrClosed
	}
	m, ok := e.st.compile(f)
	if !ok {
		return []Hit{}, nil
	}
	pl := e.st.plan(&m)
	var found []scored
	switch {
	case pl.total == 0:
		return []Hit{}, nil
	case exact:
		found = e.exactFloat(q, pl, &m, limit)
	case e.useScan(pl, &m, limit):
		found = e.scan(q, pl, &m, limit)
	default:
		found = e.approximate(q, pl, &m, limit)
	}
	return e.hits(found), nil
}

// walkCost weighs a distance computed during a graph walk against one
// computed by a scan (heap and visited-set work, random access); measured
// on the benchmark machine, see BENCHMARKS.md.
const walkCost = 3

// useScan decides between scanning the candidates and walking the graph.
// A filter keeping a share s of the graph makes the walk expand about ef/s
// nodes of up to 2M neighbours each; when that costs more than scoring the
// candidates directly (small workspaces, or mid-size ones with a
// selective filter), the scan is both faster and exact.
func (e *Embedded) useScan(pl plan, m *matcher, limit int) bool {
	if e.g == nil || pl.total <= e.opts.ExactThreshold {
		return true
	}
	matching := pl.total
	if !pl.implied {
		matching = e.estimateMatches(pl, m)
	}
	if matching <= e.opts.ExactThreshold {
		return true
	}
	share := float64(matching) / float64(e.st.size())
	ef := float64(max(e.opts.EfSearch, limit))
	return float64(pl.total) <= walkCost*ef/share*float64(e.g.m0)
}

// UsesGraph reports whether Search with this filter and limit would walk
// the HNSW graph rather than scan the candidates (for metrics, logs and
// benchmarks).
func (e *Embedded) UsesGraph(f Filter, limit int) bool {
	e.mu.RLock()
	defer e.mu.RUnlock()
	m, ok := e.st.compile(f)
	if !ok || e.closed {
		return false
	}
	pl := e.st.plan(&m)
	return pl.total > 0 && !e.useScan(pl, &m, limit)
}

// approximate runs the filtered graph search; the filter is checked
// during the walk, which goes through non-matching nodes but collects only
// matching ones, so no extra widening of ef is needed: to collect ef
// matching nodes it already expands every node closer than the worst of
// them. A walk that comes back short (fewer matches reachable than limit)
// is settled by a scan.
func (e *Embedded) approximate(q []float32, pl plan, m *matcher, limit int) []scored {
	sc := getCtx()
	defer putCtx(sc)
	found := e.g.search(sc, q, max(e.opts.EfSearch, limit), 4*limit+32, m)
	if len(found) < limit {
		return e.scan(q, pl, m, limit)
	}
	return append([]scored(nil), found[:limit]...)
}

// estimateMatches samples the candidate lists evenly and scales the share
// that passes the full filter.
func (e *Embedded) estimateMatches(pl plan, m *matcher) int {
	step := max(pl.total/sampleSize, 1)
	seen, hit := 0, 0
	i := 0
	for _, l := range pl.lists {
		for ; i < len(l); i += step {
			seen++
			if m.match(&e.st.meta[l[i]]) {
				hit++
			}
		}
		i -= len(l)
	}
	if seen == 0 {
		return 0
	}
	return int(float64(pl.total) * float64(hit) / float64(seen))
}

// scan scores every candidate that passes the filter on the int8 codes
// (a quarter of the memory traffic of float32, which dominates when the
// candidates are scattered over a large index), keeps a shortlist of
// 4*limit+16 and re-scores it in float32. The shortlist margin makes
// quantisation error practically irrelevant (recall 1.0 in BENCHMARKS.md).
func (e *Embedded) scan(q []float32, pl plan, m *matcher, limit int) []scored {
	sc := getCtx()
	defer putCtx(sc)
	p := e.st.probeFor(q, sc)
	keep := 4*limit + 16
	short := sc.res[:0]
	batch := sc.batch[:0]
	for _, l := range pl.lists {
		for _, n := range l {
			if !pl.implied && !m.match(&e.st.meta[n]) {
				continue
			}
			batch = append(batch, n)
			if len(batch) == scanBatch {
				short = e.shortlist(p, batch, short, keep, sc)
				batch = batch[:0]
			}
		}
	}
	short = e.shortlist(p, batch, short, keep, sc)
	out := make([]scored, len(short))
	for i, s := range short {
		out[i] = scored{d: -dotHalf(q, e.st.vec(s.n)), n: s.n}
	}
	sc.res, sc.batch = short[:0], batch[:0]
	sortClosestFirst(out)
	return out[:min(limit, len(out))]
}

func (e *Embedded) shortlist(p probe, batch []uint32, short maxHeap, keep int, sc *searchCtx) maxHeap {
	for i, d := range e.st.distMany(p, batch, sc) {
		if len(short) < keep || d < short.top().d {
			short.offer(scored{d: d, n: batch[i]}, keep)
		}
	}
	return short
}

// exactFloat scores every candidate that passes the filter in float32 and
// keeps the best limit.
func (e *Embedded) exactFloat(q []float32, pl plan, m *matcher, limit int) []scored {
	res := make(maxHeap, 0, limit+1)
	for _, l := range pl.lists {
		for _, n := range l {
			if !pl.implied && !m.match(&e.st.meta[n]) {
				continue
			}
			d := -dotHalf(q, e.st.vec(n))
			if len(res) < limit || d < res.top().d {
				res.offer(scored{d: d, n: n}, limit)
			}
		}
	}
	out := []scored(res)
	sortClosestFirst(out)
	return out
}

func (e *Embedded) hits(found []scored) []Hit {
	hits := make([]Hit, len(found))
	for i, s := range found {
		hits[i] = Hit{ID: e.st.ids[s.n], Score: -s.d, Payload: e.st.decode(s.n)}
	}
	return hits
}

// Count implements Index.
func (e *Embedded) Count(ctx context.Context, f Filter) (int, error) {
	if err := validateFilter(f); err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.closed {
		return 0, ErrClosed
	}
	m, ok := e.st.compile(f)
	if !ok {
		return 0, nil
	}
	pl := e.st.plan(&m)
	if pl.implied {
		return pl.total, nil
	}
	n := 0
	for _, l := range pl.lists {
		for _, x := range l {
			if m.match(&e.st.meta[x]) {
				n++
			}
		}
	}
	return n, nil
}
