package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"time"
)

// key names one throughput cell: a path at a concurrency.
type key struct {
	target string
	conc   int
}

// throughput sums the runs of one cell.
type throughput struct {
	counts
	proxyCPU, upstreamCPU time.Duration
}

func (t *throughput) add(o throughput) {
	t.requests += o.requests
	t.failures += o.failures
	t.elapsed += o.elapsed
	t.proxyCPU += o.proxyCPU
	t.upstreamCPU += o.upstreamCPU
}

// results are a run's figures: closed-loop throughput, equal-rate and
// fixed-rate latency runs.
type results struct {
	tp      map[key]*throughput
	eq      map[key]*throughput
	eqRates map[int]int // the equal-rate runs' requests/s by concurrency
	lat     map[string]*latency
}

func newResults() results {
	return results{tp: map[key]*throughput{}, eq: map[key]*throughput{}, eqRates: map[int]int{}, lat: map[string]*latency{}}
}

func run(ctx context.Context, o options) error {
	dir, err := os.MkdirTemp("", "hopbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if o.profileDir != "" {
		if err := os.MkdirAll(o.profileDir, 0o755); err != nil {
			return err
		}
	}
	s, err := startStack(dir, o)
	if err != nil {
		return err
	}
	defer s.close()
	ts := s.targets(o)
	for _, t := range ts {
		if err := checkTarget(t); err != nil {
			return err
		}
	}
	_, err = exec.LookPath("wrk")
	useWrk := err == nil
	if !useWrk {
		fmt.Fprintln(os.Stderr, "hopbench: wrk not found (apt-get install -y wrk); using the Go closed-loop client")
	}
	maxConc := slices.Max(o.concs)
	// Warm-up: connections, pools, caches, and a heap that has been
	// collected a few times. A fresh gateway's heap grows into new pages
	// until then (GOGC=400: tens of MB of garbage), and each new page costs
	// a page fault. Measured at the slowest pace (fifteenth pass): in 10 s
	// of latency runs right after a 1, 3 or 6 s warm-up the gateway took
	// 2,002, 1,105 and 14 faults and 1,045, 1,042 and 830 ms of CPU. The
	// latency-only runs, which have no throughput runs before them, measured
	// that with the earlier 1 s.
	for _, t := range ts {
		if _, err := measureThroughput(ctx, s, t, maxConc, o.warmup, useWrk); err != nil {
			return err
		}
	}
	res := newResults()
	tp := res.tp
	for round := range o.rounds {
		order := slices.Concat(ts[round%len(ts):], ts[:round%len(ts)])
		for _, conc := range o.concs {
			if o.latencyOnly {
				break
			}
			for _, t := range order {
				if round == 0 && conc == maxConc && t.name == "gateway" && o.profileDir != "" {
					go profileBoth(s, o)
				}
				r, err := measureThroughput(ctx, s, t, conc, o.slice, useWrk)
				if err != nil {
					return err
				}
				if tp[key{t.name, conc}] == nil {
					tp[key{t.name, conc}] = &throughput{}
				}
				tp[key{t.name, conc}].add(r)
			}
		}
		if !o.latencyOnly && o.equalShare > 0 {
			equalRates(o, ts, tp, res.eqRates)
			if err := measureEqualRate(ctx, o, s, order, res.eqRates, res.eq); err != nil {
				return err
			}
		}
		if round == 0 && o.profileDir != "" {
			traceProxies(s, o, len(order))
		}
		if err := measureLatency(ctx, o, s, order, res.lat); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "hopbench: round %d of %d done\n", round+1, o.rounds)
	}
	report(os.Stdout, o, ts, res, s.sink.exports.Load(), useWrk)
	return nil
}

// measureThroughput runs one closed-loop run and charges the CPU the proxy
// and the upstream used meanwhile.
func measureThroughput(ctx context.Context, s *stack, t *target, conc int, d time.Duration, useWrk bool) (throughput, error) {
	up0, px0 := s.upstream.cpu(), time.Duration(0)
	if t.proxy != nil {
		px0 = t.proxy.cpu()
	}
	var (
		c   counts
		err error
	)
	if useWrk {
		c, err = runWrk(ctx, s.dir, t.addr, t.headers(), conc, d)
	} else {
		c, err = closedLoop(ctx, t.addr, buildRequest(t.addr, t.headers()), conc, d)
	}
	if err != nil {
		return throughput{}, fmt.Errorf("%s at c=%d: %w", t.name, conc, err)
	}
	r := throughput{counts: c, upstreamCPU: s.upstream.cpu() - up0}
	if t.proxy != nil {
		r.proxyCPU = t.proxy.cpu() - px0
	}
	return r, nil
}

// traceProxies writes execution traces of the gateway, the sketch and the split
// (those measured) taken during the first latency run, which drives each
// of paths paths for o.slice in turn (where a proxy's tail at a fixed rate
// comes from: bench/schedwait).
func traceProxies(s *stack, o options, paths int) {
	d := max(o.slice*time.Duration(paths)-time.Second, time.Second)
	for _, p := range []*proc{s.gateway, s.sketch, s.split} {
		if p == nil || !o.wants(p.name) {
			continue
		}
		go func() {
			if err := traceExecution(p, o.profileDir, d); err != nil {
				fmt.Fprintln(os.Stderr, "hopbench: trace:", err)
			}
		}()
	}
}

// profileBoth writes CPU profiles of the gateway and the upstream taken
// during one gateway run.
func profileBoth(s *stack, o options) {
	d := max(o.slice-time.Second, time.Second)
	for _, p := range []*proc{s.gateway, s.upstream} {
		go func() {
			if err := profileCPU(p, o.profileDir, d); err != nil {
				fmt.Fprintln(os.Stderr, "hopbench: profile:", err)
			}
		}()
	}
}
