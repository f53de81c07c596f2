package main

import (
	"math"
	"strings"
	"testing"
	"time"
)

// The goal lines give nginx's figure beside the gateway's; the added p99
// is judged by piece: met when the interval of the paired pieces' median
// is within the goal, missed when it is all over it, else not judged; a
// stall in a few pieces does not move it. The upstream's goal is judged
// at an equal rate, its closed-loop ratio shown beside it unjudged.
func TestGoalLinesSetTheGatewayBesideNginx(t *testing.T) {
	t.Parallel()
	run := func(requests int64, proxyUS, upstreamUS int64) *throughput {
		return &throughput{
			counts:      counts{requests: int(requests), elapsed: time.Second},
			proxyCPU:    time.Duration(requests*proxyUS) * time.Microsecond,
			upstreamCPU: time.Duration(requests*upstreamUS) * time.Microsecond,
		}
	}
	tp := map[key]*throughput{
		{"direct", 64}:  run(10000, 0, 100),
		{"nginx", 64}:   run(7000, 50, 105),
		{"gateway", 64}: run(6500, 55, 115),
	}
	// One sample a piece: a piece's p99 is that sample.
	pieces := func(us ...int) *latency {
		l := &latency{}
		for _, u := range us {
			l.pieces = append(l.pieces, []time.Duration{time.Duration(u) * time.Microsecond})
		}
		return l
	}
	// Stalls of the machine in direct's pieces 2 and 7 and the gateway's
	// 4; otherwise the gateway adds 150 µs and nginx 100.
	noisy := map[string]*latency{
		"direct":  pieces(400, 400, 5000, 400, 400, 400, 400, 5000, 400, 400, 400, 400),
		"nginx":   pieces(500, 500, 500, 500, 500, 500, 500, 500, 500, 500, 500, 500),
		"gateway": pieces(550, 550, 550, 550, 6000, 550, 550, 550, 550, 550, 550, 550),
	}
	var b strings.Builder
	// At one rate for all three the service costs the same behind either
	// proxy as direct.
	eq := map[key]*throughput{
		{"direct", 64}:  run(5000, 0, 160),
		{"nginx", 64}:   run(5000, 60, 152),
		{"gateway", 64}: run(5000, 62, 168),
	}
	goals(&b, options{concs: []int{64}, rate: 2000}, results{tp: tp, lat: noisy, eq: eq, eqRates: map[int]int{64: 5000}})
	got := b.String()
	for _, want := range []string{
		"gateway throughput 0.65× direct (goal ≥ 0.60: met; nginx 0.70×)",
		"gateway CPU 1.10× nginx's (goal ≤ 1.25: met)",
		"upstream CPU 1.15× direct in closed loop, at its own rate (not judged; nginx 1.05×); at an equal 5000 req/s 1.05× (goal ≤ 1.10: met; nginx 0.95×)\n",
		"gateway adds 150 µs [150 µs, 150 µs] at p99 at 2000 req/s (median of 12 paired 1s pieces, 96 % interval; goal ≤ 200 µs: met; nginx adds 100 µs [100 µs, 100 µs])",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("goal lines lack %q:\n%s", want, got)
		}
	}

	for _, tc := range []struct {
		eq   map[key]*throughput
		want string
	}{
		{map[key]*throughput{{"direct", 64}: run(5000, 0, 160), {"gateway", 64}: run(5000, 62, 184)},
			"; at an equal 5000 req/s 1.15× (goal ≤ 1.10: MISSED)\n"},
		{nil, "; at one rate: not judged, no equal-rate runs (goal ≤ 1.10; -equal-share)\n"},
	} {
		b.Reset()
		goals(&b, options{concs: []int{64}}, results{tp: tp, eq: tc.eq, eqRates: map[int]int{64: 5000}})
		if got := b.String(); !strings.HasSuffix(got, tc.want) {
			t.Errorf("upstream clause: %q, want it to end in %q", got, tc.want)
		}
	}

	direct := pieces(400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400)
	for _, tc := range []struct {
		gateway *latency
		want    string
	}{
		{pieces(700, 700, 700, 700, 700, 700, 700, 700, 700, 700, 700, 9000),
			"gateway adds 300 µs [300 µs, 300 µs] at p99 at 2000 req/s (median of 12 paired 1s pieces, 96 % interval; goal ≤ 200 µs: MISSED)\n"},
		{pieces(700, 700, 700, 700), // one round of 4 s: too few pieces, however clear
			"gateway adds 300 µs [300 µs, 300 µs] at p99 at 2000 req/s (median of 4 paired 1s pieces, 88 % interval; goal ≤ 200 µs: not judged: 4 pieces are too few for a 90 % interval (more -rounds or a longer -slice))\n"},
		{pieces(500, 520, 540, 560, 580, 600, 620, 640, 660, 680, 700, 720),
			"gateway adds 210 µs [140 µs, 280 µs] at p99 at 2000 req/s (median of 12 paired 1s pieces, 96 % interval; goal ≤ 200 µs: not judged: its interval spans the goal (more -rounds narrow it))\n"},
	} {
		b.Reset()
		goals(&b, options{concs: []int{64}, rate: 2000}, results{lat: map[string]*latency{"direct": direct, "gateway": tc.gateway}})
		if got := b.String(); got != tc.want {
			t.Errorf("run without nginx: %q, want %q", got, tc.want)
		}
	}
}

// The interval is the sign test's: for 12 pairs the 3rd to the 10th
// smallest (96.1 %), for 5 or 6 the whole range, the most they allow.
func TestMedianIntervalIsTheSignTests(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n    int
		j    int
		conf float64
	}{{12, 2, 1 - 2*79.0/4096}, {6, 0, 1 - 2.0/64}, {5, 0, 1 - 2.0/32}, {30, 9, 1 - 2*binomialCDF(30, 9)}} {
		j, conf := medianInterval(tc.n, 0.95)
		if j != tc.j || math.Abs(conf-tc.conf) > 1e-9 {
			t.Errorf("n=%d: j=%d conf=%.4f, want %d %.4f", tc.n, j, conf, tc.j, tc.conf)
		}
	}
	if got := binomialCDF(4, 1); math.Abs(got-5.0/16) > 1e-12 {
		t.Errorf("P(B(4,½) ≤ 1) = %v, want 5/16", got)
	}
}

// A ratio that two decimals would round onto its goal from the wrong side
// gets a third, so a goal line never reads "1.10× (goal ≤ 1.10: MISSED)".
func TestGoalRatioShowsWhatRoundingHides(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		got, want string
	}{
		{atMost(1.104, 1.10), "1.104"},
		{atMost(1.0996, 1.10), "1.10"}, // met: two decimals are right
		{atMost(1.1, 1.10), "1.10"},
		{atMost(1.23, 1.10), "1.23"},
		{atLeast(0.598, 0.60), "0.598"},
		{atLeast(0.6049, 0.60), "0.60"},
		{atLeast(0.55, 0.60), "0.55"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %s, want %s", tc.got, tc.want)
		}
	}
}
