package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/opencollab/backend/deploy/local/benchkit"
)

// The two kinds of search the load mixes half and half.
const (
	wideSearch = "workspace-wide"
	orgSearch  = "organizationId filter"
)

// searches is what the load phase measured of one kind of search (or of
// all of them).
type searches struct {
	name     string
	latency  []time.Duration // HTTP round trip through the gateway, sorted
	service  []time.Duration // searchLatencyMs as the service reports it, sorted
	results  int             // records returned, summed
	errors   int
	firstErr error
	// short counts searches that returned fewer than limit records though
	// at least limit were in scope: the design promises limit results
	// whenever that many match, and no filter but the scope is used here.
	short      int
	firstShort string
	// lo and hi are the least and greatest totalInScope seen: of a
	// workspace-wide search, how many judgments there were while the load
	// ran (the consumer may still be ingesting).
	lo, hi   int64
	anyTotal bool
}

// load is the whole load phase.
type load struct {
	conc    int
	elapsed time.Duration
	cpu     time.Duration
	kinds   []searches // wide, org
}

// runLoad has conc clients call /v2/memory/search back to back for d.
// Each client alternates workspace-wide and organization-filtered
// searches, so the mix is half and half whatever the rates.
func runLoad(ctx context.Context, c *benchkit.Client, conc int, d time.Duration, orgs, limit int) load {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	l := load{conc: conc, kinds: []searches{{name: wideSearch}, {name: orgSearch}}}
	var mu sync.Mutex
	var wg sync.WaitGroup
	cpu0, start := cpuTime(), time.Now()
	for w := range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			mine := []searches{{}, {}}
			for i := 0; ctx.Err() == nil; i++ {
				body := map[string]any{"query": queryText(rng), "limit": limit}
				if i%2 == 1 {
					body["organizationId"] = orgName(rng.IntN(orgs))
				}
				mine[i%2].add(search(ctx, c, body, limit))
			}
			mu.Lock()
			for k := range l.kinds {
				l.kinds[k].merge(mine[k])
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	l.elapsed, l.cpu = time.Since(start), cpuTime()-cpu0
	for k := range l.kinds {
		slices.Sort(l.kinds[k].latency)
		slices.Sort(l.kinds[k].service)
	}
	return l
}

// outcome is one search call.
type outcome struct {
	latency, service time.Duration
	results          int
	err              error
	short            string // set when the search came back short: what was asked and found
	total            int64
}

// search makes one call. A call cut off by the end of the phase is not an
// error and not a latency: it never completed.
func search(ctx context.Context, c *benchkit.Client, body map[string]any, limit int) *outcome {
	var r searchReply
	t0 := time.Now()
	err := c.Call(ctx, "/v2/memory/search", body, &r)
	o := &outcome{latency: time.Since(t0), err: err}
	switch {
	case err != nil && ctx.Err() != nil:
		return nil
	case err == nil && (r.SearchLatencyMs == nil || r.TotalInScope == nil):
		o.err = errors.New("search reply without searchLatencyMs or totalInScope")
	case err == nil:
		o.service = time.Duration(*r.SearchLatencyMs * float64(time.Millisecond))
		o.results, o.total = len(r.Results), *r.TotalInScope
		if int64(o.results) < min(int64(limit), *r.TotalInScope) {
			o.short = fmt.Sprintf("%v: %d results, totalInScope %d", body, o.results, *r.TotalInScope)
		}
	}
	return o
}

func (s *searches) add(o *outcome) {
	if o == nil {
		return
	}
	s.latency = append(s.latency, o.latency)
	if o.err != nil {
		s.errors++
		if s.firstErr == nil {
			s.firstErr = o.err
		}
		return
	}
	s.service = append(s.service, o.service)
	s.results += o.results
	s.seeTotals(o.total, o.total)
	if o.short != "" {
		s.short++
		if s.firstShort == "" {
			s.firstShort = o.short
		}
	}
}

func (s *searches) merge(o searches) {
	s.latency = append(s.latency, o.latency...)
	s.service = append(s.service, o.service...)
	s.results += o.results
	s.errors += o.errors
	if s.firstErr == nil {
		s.firstErr = o.firstErr
	}
	s.short += o.short
	if s.firstShort == "" {
		s.firstShort = o.firstShort
	}
	if o.anyTotal {
		s.seeTotals(o.lo, o.hi)
	}
}

func (s *searches) seeTotals(lo, hi int64) {
	if !s.anyTotal || lo < s.lo {
		s.lo = lo
	}
	s.hi, s.anyTotal = max(s.hi, hi), true
}

// all is both kinds together.
func (l load) all() searches {
	a := searches{name: "all"}
	for _, k := range l.kinds {
		a.merge(k)
	}
	slices.Sort(a.latency)
	slices.Sort(a.service)
	return a
}

func (s searches) requests() int { return len(s.latency) }

// meanResults is how many records a successful search returned on average.
func (s searches) meanResults() float64 {
	if len(s.service) == 0 {
		return 0
	}
	return float64(s.results) / float64(len(s.service))
}

// quantile is the q-quantile (nearest rank) of sorted latencies.
func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[int(q*float64(len(sorted)-1)+0.5)]
}

func (s searches) String() string {
	return fmt.Sprintf("%s: %d requests, p50 %v", s.name, s.requests(), quantile(s.latency, 0.5))
}
