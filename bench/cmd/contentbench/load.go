package main

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// result is a success reply's result object: Data is result.data.
type result[T any] struct {
	Data          T       `json:"data"`
	NextPageToken *string `json:"nextPageToken"`
}

// op is one call of a phase; i runs from 0 to calls-1. It returns how many
// records the call wrote (or read).
type op func(ctx context.Context, i int) (records int, err error)

// phase is what one run of calls measured.
type phase struct {
	name      string
	conc      int
	calls     int
	records   int
	failures  int
	firstErr  error
	elapsed   time.Duration
	latencies []time.Duration // sorted
	byCall    []time.Duration // latency of call i; workers take calls in order, so this is roughly time order
}

// measure makes calls calls of o on conc workers and records every latency.
func measure(ctx context.Context, name string, calls, conc int, o op) phase {
	p := phase{name: name, conc: conc, byCall: make([]time.Duration, calls)}
	var next atomic.Int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < min(conc, calls); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= calls {
					return
				}
				t0 := time.Now()
				n, err := o(ctx, i)
				lat := time.Since(t0)
				mu.Lock()
				p.byCall[i] = lat
				p.latencies = append(p.latencies, lat)
				p.records += n
				if err != nil {
					p.failures++
					if p.firstErr == nil {
						p.firstErr = err
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	p.elapsed = time.Since(start)
	p.calls = len(p.latencies)
	p.byCall = p.byCall[:p.calls] // calls not made when ctx ended early are at the end
	slices.Sort(p.latencies)
	return p
}

// err is the phase's failure, for phases that must fully succeed (seeding).
func (p phase) err() error {
	if p.failures == 0 && p.firstErr == nil {
		return nil
	}
	return fmt.Errorf("%s: %d of %d calls failed, first: %w", p.name, p.failures, p.calls, p.firstErr)
}

func (p phase) callsPerSecond() float64   { return float64(p.calls) / p.elapsed.Seconds() }
func (p phase) recordsPerSecond() float64 { return float64(p.records) / p.elapsed.Seconds() }

// pct is the q-quantile latency (nearest rank).
func (p phase) pct(q float64) time.Duration { return quantile(p.latencies, q) }

// firstAndLastQuarter are the median latencies of the first and the last
// quarter of the calls: a write whose cost grows with what is already
// stored shows it as a last quarter slower than the first.
func (p phase) firstAndLastQuarter() (first, last time.Duration) {
	n := len(p.byCall) / 4
	if n == 0 {
		return p.pct(0.5), p.pct(0.5)
	}
	return median(p.byCall[:n]), median(p.byCall[len(p.byCall)-n:])
}

func median(lat []time.Duration) time.Duration {
	sorted := slices.Clone(lat)
	slices.Sort(sorted)
	return quantile(sorted, 0.5)
}

// quantile is the q-quantile (nearest rank) of sorted latencies.
func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[int(q*float64(len(sorted)-1)+0.5)]
}

func (p phase) mean() time.Duration {
	if len(p.latencies) == 0 {
		return 0
	}
	var sum time.Duration
	for _, l := range p.latencies {
		sum += l
	}
	return sum / time.Duration(len(p.latencies))
}
