package main

import (
	"strings"
	"testing"
	"time"
)

// The goal lines give nginx's figure beside the gateway's; the added p99
// is judged only when direct's own p99 held within the goal across the
// rounds (met and missed alike), else the line says how far it moved.
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
	goals(&b, options{concs: []int{64}, rate: 2000}, tp, noisy)
	got := b.String()
	for _, want := range []string{
		"gateway throughput 0.65× direct (goal ≥ 0.60: met; nginx 0.70×)",
		"gateway CPU 1.10× nginx's (goal ≤ 1.25: met)",
		"upstream CPU 1.15× direct (goal ≤ 1.10: MISSED; nginx 1.05×)",
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
		goals(&b, options{concs: []int{64}, rate: 2000}, map[key]*throughput{}, quiet)
		if got := b.String(); got != tc.want {
			t.Errorf("quiet run without nginx: %q, want %q", got, tc.want)
		}
	}
}
