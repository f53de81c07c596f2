package main

import (
	"strings"
	"testing"
	"time"
)

// The goal lines give nginx's figure beside the gateway's; the added p99
// is judged only when direct's own p99 held within the goal across the
// rounds (met and missed alike), else the line says how far it moved;
// the upstream's clause adds its ratio at an equal rate when that ran.
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
	p99s := func(us ...int) *latency {
		l := &latency{}
		for _, u := range us {
			l.rounds = append(l.rounds, []time.Duration{time.Duration(u) * time.Microsecond})
		}
		return l
	}
	noisy := map[string]*latency{
		"direct":  p99s(1000, 2500, 1500),
		"nginx":   p99s(1400, 3000, 2000),
		"gateway": p99s(1600, 2900, 2100),
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
		"upstream CPU 1.15× direct (goal ≤ 1.10: MISSED; nginx 1.05×); at an equal 5000 req/s 1.05× (goal ≤ 1.10: met; nginx 0.95×)\n",
		"gateway adds 600 µs at p99 at 2000 req/s (goal ≤ 200 µs: not judged, direct's own p99 moved 1500 µs between rounds; nginx adds 500 µs)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("goal lines lack %q:\n%s", want, got)
		}
	}

	for _, tc := range []struct {
		gateway *latency
		want    string
	}{
		{p99s(500, 600, 650), "gateway adds 150 µs at p99 at 2000 req/s (goal ≤ 200 µs: met)\n"},
		{p99s(700, 700, 700), "gateway adds 250 µs at p99 at 2000 req/s (goal ≤ 200 µs: MISSED)\n"},
	} {
		quiet := map[string]*latency{"direct": p99s(400, 450, 500), "gateway": tc.gateway}
		b.Reset()
		goals(&b, options{concs: []int{64}, rate: 2000}, results{lat: quiet})
		if got := b.String(); got != tc.want {
			t.Errorf("quiet run without nginx: %q, want %q", got, tc.want)
		}
	}
}
