package main

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// latency gathers the fixed-rate samples of one path, per round.
type latency struct {
	rounds   [][]time.Duration
	failures int
}

// latencyWorkers is how many connections carry the fixed-rate load: each
// sends every workers/rate (16 ms at 2000/s), far longer than an answer.
const latencyWorkers = 32

// measureLatency runs one round of the fixed-rate runs, a run per path.
func measureLatency(ctx context.Context, o options, ts []*target, lat map[string]*latency) error {
	for _, t := range ts {
		samples, fails, err := constantRate(ctx, t.addr, buildRequest(t.addr, t.headers()), o.rate, o.slice, latencyWorkers)
		if err != nil {
			return fmt.Errorf("%s at %d/s: %w", t.name, o.rate, err)
		}
		if lat[t.name] == nil {
			lat[t.name] = &latency{}
		}
		lat[t.name].rounds = append(lat[t.name].rounds, samples)
		lat[t.name].failures += fails
	}
	return nil
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
	out := make([]time.Duration, len(l.rounds))
	for i, s := range l.rounds {
		out[i] = quantile(s, q)
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
