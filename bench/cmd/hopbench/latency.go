package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"time"
)

// latency gathers the fixed-rate samples of one path, per round, and the
// CPU the upstream and the proxy used meanwhile: at one rate for every
// path, the upstream's CPU per request does not depend on how busy a
// faster or slower path kept it, as it does in the throughput runs.
type latency struct {
	pieces         [][]time.Duration // every piece of every round, in turn order
	piecesPerRound int               // pieces a round: a round's samples are its pieces'
	// resumes holds each turn's slowest lead-in request (turnLeadIn).
	resumes  []time.Duration
	failures int
	cpu      throughput
}

// latencyWorkers is how many connections carry the fixed-rate load: each
// sends every workers/rate (16 ms at 2000/s), far longer than an answer.
const latencyWorkers = 32

// latencyPiece is how long a path is driven at a time: each path's share
// of a round (-slice) is cut into pieces taken in turn, so a burst of the
// shared machine's other work falls on every path alike instead of on one.
const latencyPiece = time.Second

// turnLeadIn is how long each turn runs at the rate before its piece is
// measured. A path resumes from the other paths' turns, seconds without a
// request, which a steady stream at the rate never has: the gateway's
// credential entries (AUTH_CACHE_TTL, 1 s) have lapsed, and its rate
// limit has no lease for the new window, so its first requests wait on
// Redis; every path's threads and caches are cold. That resume is
// reported apart (the slowest lead-in request of each turn), not charged
// to the steady rate's p99.
const turnLeadIn = 50 * time.Millisecond

// measureLatency runs one round of the fixed-rate runs: o.slice per path,
// in pieces taken in turn, on connections opened and used once before the
// round (no sample is a connection's first request). With o.latencyRT
// every process a request passes through runs in SCHED_RR meanwhile: on
// a shared machine the p99 is otherwise the other work's time slices
// (milliseconds), not the hop's.
func measureLatency(ctx context.Context, o options, s *stack, ts []*target, lat map[string]*latency) error {
	if o.latencyRT {
		pids := s.pids()
		if err := setRealtime(pids, true); err != nil {
			return fmt.Errorf("real-time scheduling for the latency runs (-latency-rt=false to go without): %w", err)
		}
		defer func() { _ = setRealtime(s.pids(), false) }()
	}
	if o.pollIdle {
		release, err := holdPollIdle()
		if err != nil {
			return fmt.Errorf("polling idle CPUs for the latency runs (-poll-idle=false to go without): %w", err)
		}
		defer release()
	}
	conns := make([][]*rawConn, len(ts))
	defer func() {
		for _, cs := range conns {
			for _, c := range cs {
				c.close()
			}
		}
	}()
	for i, t := range ts {
		var err error
		if conns[i], err = warmConns(t, latencyWorkers); err != nil {
			return fmt.Errorf("%s: %w", t.name, err)
		}
	}
	pieces := max(1, int(o.slice/latencyPiece))
	for range pieces {
		for i, t := range ts {
			var (
				samples, lead []time.Duration
				fails         int
				err           error
			)
			up0, px0 := s.upstream.cpu(), t.proxyCPU()
			withoutGC(func() {
				samples, lead, fails, err = constantRate(ctx, conns[i], buildRequest(t.addr, t.headers()), o.rate, turnLeadIn, o.slice/time.Duration(pieces))
			})
			if err != nil {
				return fmt.Errorf("%s at %d/s: %w", t.name, o.rate, err)
			}
			if lat[t.name] == nil {
				lat[t.name] = &latency{piecesPerRound: pieces}
			}
			l := lat[t.name]
			l.pieces = append(l.pieces, samples)
			if len(lead) > 0 {
				l.resumes = append(l.resumes, slices.Max(lead))
			}
			l.failures += fails
			l.cpu.requests += len(samples) + len(lead)
			l.cpu.upstreamCPU += s.upstream.cpu() - up0
			l.cpu.proxyCPU += t.proxyCPU() - px0
		}
	}
	return nil
}

// proxyCPU is the CPU the target's proxy has used so far, 0 for direct.
func (t *target) proxyCPU() time.Duration {
	if t.proxy == nil {
		return 0
	}
	return t.proxy.cpu()
}

// pids are the processes a request passes through: this one (the load
// generator), the upstream and every proxy.
func (s *stack) pids() []int {
	pids := []int{os.Getpid()}
	for _, p := range []*proc{s.upstream, s.gateway, s.gwStd, s.gwB, s.sketch, s.split, s.nginx} {
		if p != nil {
			pids = append(pids, p.pids...)
		}
	}
	return pids
}

// warmConns opens n connections to t and sends one request on each.
func warmConns(t *target, n int) ([]*rawConn, error) {
	req := buildRequest(t.addr, t.headers())
	cs := make([]*rawConn, 0, n)
	for range n {
		c, err := dialRaw(t.addr)
		if err != nil {
			return cs, err
		}
		cs = append(cs, c)
		if status, err := c.roundTrip(req); err != nil || status != 200 {
			return cs, fmt.Errorf("warm-up request: status %d, %v", status, err)
		}
	}
	return cs, nil
}

// withoutGC runs f with this process's collector off. The load generator
// shares the process with the benchmark's Redis and trace sink; a
// collection would pause its clients mid-run and charge the pause to
// whichever path is being measured. A piece's garbage is small (the
// samples are preallocated; Redis and the sink see a few calls a second).
func withoutGC(f func()) {
	runtime.GC()
	old := debug.SetGCPercent(-1)
	defer debug.SetGCPercent(old)
	f()
}

// quantile is the q-quantile of samples (sorted in place).
func quantile(samples []time.Duration, q float64) time.Duration {
	if len(samples) == 0 {
		return 0
	}
	slices.Sort(samples)
	return samples[int(q*float64(len(samples)-1))]
}

// perRound is the q-quantile of each round's samples.
func (l *latency) perRound(q float64) []time.Duration {
	if l == nil {
		return nil
	}
	n := max(l.piecesPerRound, 1)
	out := make([]time.Duration, len(l.pieces)/n)
	for i := range out {
		out[i] = quantile(slices.Concat(l.pieces[i*n:(i+1)*n]...), q)
	}
	return out
}

// pct is the median over the rounds of each round's q-quantile: one round
// disturbed by the shared machine moves it less than it moves the
// quantile of all samples pooled.
func (l *latency) pct(q float64) time.Duration { return median(l.perRound(q)) }

// added is the median over the rounds of l's q-quantile minus base's in
// the same round, the two runs of a round being closest in time.
func (l *latency) added(base *latency, q float64) time.Duration {
	a, b := l.perRound(q), base.perRound(q)
	d := make([]time.Duration, min(len(a), len(b)))
	for i := range d {
		d[i] = a[i] - b[i]
	}
	return median(d)
}

// median of ds (sorted in place); the mean of the middle two for an even
// count.
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	n := len(ds)
	return (ds[(n-1)/2] + ds[n/2]) / 2
}
