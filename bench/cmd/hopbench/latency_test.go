package main

import (
	"testing"
	"time"
)

// A round disturbed by the machine moves the reported p99 no further than
// the middle rounds allow, and added latency pairs each round with
// direct's own.
func TestLatencyIsTheMedianOfRounds(t *testing.T) {
	ms := func(vs ...int) []time.Duration {
		out := make([]time.Duration, 0, len(vs))
		for _, v := range vs {
			out = append(out, time.Duration(v)*time.Millisecond)
		}
		return out
	}
	// 100 samples a round: the p99 is the 99th smallest (index 98).
	round := func(base, tail int) []time.Duration {
		s := make([]time.Duration, 0, 100)
		for range 98 {
			s = append(s, time.Duration(base)*time.Millisecond)
		}
		return append(s, ms(tail, tail)...)
	}
	// One piece a round here; a round of several is their samples together.
	direct := &latency{piecesPerRound: 1, pieces: [][]time.Duration{round(1, 2), round(1, 900), round(1, 4)}}
	proxy := &latency{piecesPerRound: 1, pieces: [][]time.Duration{round(1, 3), round(1, 950), round(1, 5)}}
	if got := direct.pct(0.99); got != 4*time.Millisecond {
		t.Errorf("direct p99 %v, want the middle round's 4ms", got)
	}
	if got := proxy.added(direct, 0.99); got != time.Millisecond {
		t.Errorf("added p99 %v, want 1ms (3-2, 950-900, 5-4: median 1)", got)
	}
	if got := median(ms(1, 2, 3, 10)); got != 2500*time.Microsecond {
		t.Errorf("median of an even count %v, want the mean of the middle two", got)
	}
	// Two pieces a round: a round's figure is over both pieces' samples.
	two := &latency{piecesPerRound: 2, pieces: [][]time.Duration{ms(1), ms(3), ms(5), ms(7)}}
	if got := two.perRound(1); len(got) != 2 || got[0] != 3*time.Millisecond || got[1] != 7*time.Millisecond {
		t.Errorf("largest of each two-piece round %v, want [3ms 7ms]", got)
	}
	if got := (&latency{}).pct(0.99); got != 0 {
		t.Errorf("no rounds: %v", got)
	}
}
