package main

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/opencollab/backend/deploy/local/benchkit"
)

// Added latency from paired pieces.
//
// On a shared virtual machine the p99 of a whole round is set by the few
// stalls (milliseconds: the host ran something else) that happened to
// fall in that path's pieces: direct's own p99 here moved by 0.3–3.7 ms
// between rounds, more than ten times the 200 µs goal, so the round
// figure could rarely be judged. A proxy's own tail (its scheduler's
// waits, its queueing) is in every piece, a stall in a few. So each
// 1-second piece of a path is paired with direct's piece of the same turn
// (the two closest in time), the pair's difference of p99s taken, and
// the median over all pairs reported with a distribution-free interval:
// a stall moves one pair, not the median, and the interval says whether
// the run can tell the figure from the goal.

// pairedAdded is the q-quantile of each of l's pieces minus that of
// base's piece of the same turn.
func (l *latency) pairedAdded(base *latency, q float64) []time.Duration {
	if l == nil || base == nil {
		return nil
	}
	n := min(len(l.pieces), len(base.pieces))
	d := make([]time.Duration, n)
	for k := range n {
		d[k] = quantile(l.pieces[k], q) - quantile(base.pieces[k], q)
	}
	return d
}

// pairedEstimate is the median of paired differences and an interval
// that holds the true median with at least 95 % confidence (wider when
// there are too few pairs for that: then it is the whole range).
type pairedEstimate struct {
	median, low, high time.Duration
	pairs             int
	confidence        float64 // of [low, high]
}

// estimatePaired sorts d in place.
func estimatePaired(d []time.Duration) pairedEstimate {
	if len(d) == 0 {
		return pairedEstimate{}
	}
	slices.Sort(d)
	n := len(d)
	j, conf := medianInterval(n, 0.95)
	return pairedEstimate{median: median(d), low: d[j], high: d[n-1-j], pairs: n, confidence: conf}
}

// medianInterval is the order statistic (0-based) j such that the sorted
// sample's [j, n-1-j] holds the median with confidence at least level,
// with j as large as that allows, and the confidence it has: a pair's
// difference is above the true median with probability 1/2, so the count
// below it is Binomial(n, 1/2) whatever the distribution (the sign test's
// interval).
func medianInterval(n int, level float64) (int, float64) {
	j, conf := 0, 1-2*math.Pow(0.5, float64(n))
	for k := 1; 2*k < n; k++ {
		c := 1 - 2*binomialCDF(n, k)
		if c < level {
			break
		}
		j, conf = k, c
	}
	return j, conf
}

// binomialCDF is P(B ≤ k) for B ~ Binomial(n, 1/2).
func binomialCDF(n, k int) float64 {
	sum, term := 0.0, math.Pow(0.5, float64(n)) // C(n,0)/2^n
	for i := 0; i <= k; i++ {
		sum += term
		term = term * float64(n-i) / float64(i+1)
	}
	return sum
}

// minConfidence is the least confidence of an interval that is judged:
// 5 pairs give 94 %, 4 only 88 % (their whole range).
const minConfidence = 0.9

// verdict judges the estimate against a goal of at most goal: met when
// the whole interval is within it, missed when the whole interval is
// over it, otherwise not judged.
func (e pairedEstimate) verdict(goal time.Duration) string {
	switch {
	case e.pairs == 0:
		return "not measured"
	case e.confidence < minConfidence:
		return fmt.Sprintf("not judged: %d pieces are too few for a %.0f %% interval (more -rounds or a longer -slice)", e.pairs, 100*minConfidence)
	case e.high <= goal, e.low > goal:
		return benchkit.Verdict(e.high <= goal)
	}
	return "not judged: its interval spans the goal (more -rounds narrow it)"
}

// String is "median [low, high]".
func (e pairedEstimate) String() string {
	return fmt.Sprintf("%s [%s, %s]", us(e.median), us(e.low), us(e.high))
}
