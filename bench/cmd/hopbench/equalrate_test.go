package main

import (
	"strings"
	"testing"
	"time"
)

// The equal rate is a share of the slowest proxy's throughput at each
// concurrency (direct's own is not a proxy's), fixed by the first round.
func TestEqualRatesFollowTheSlowestProxy(t *testing.T) {
	t.Parallel()
	ts := []*target{{name: "direct"}, {name: "nginx", proxy: &proc{}}, {name: "gateway", proxy: &proc{}}}
	at := func(rps int) *throughput { return &throughput{counts: counts{requests: rps, elapsed: time.Second}} }
	tp := map[key]*throughput{
		{"direct", 16}: at(30000), {"nginx", 16}: at(20000), {"gateway", 16}: at(19000),
		{"direct", 64}: at(31000), {"nginx", 64}: at(21000), {"gateway", 64}: at(22000),
	}
	o := options{concs: []int{16, 64}, equalShare: 0.8}
	rates := map[int]int{}
	equalRates(o, ts, tp, rates)
	if rates[16] != 15200 || rates[64] != 16800 {
		t.Fatalf("rates %v, want 16: 15200, 64: 16800", rates)
	}
	tp[key{"gateway", 16}] = at(5000) // a later round's figures
	equalRates(o, ts, tp, rates)
	if rates[16] != 15200 {
		t.Errorf("rate at 16 moved to %d after the first round", rates[16])
	}

	eq := map[key]*throughput{
		{"direct", 16}:  {counts: counts{requests: 15200, elapsed: time.Second}, upstreamCPU: 15200 * 50 * time.Microsecond},
		{"gateway", 16}: {counts: counts{requests: 15200, elapsed: 2 * time.Second}, upstreamCPU: 15200 * 55 * time.Microsecond},
	}
	var b strings.Builder
	equalRateTable(&b, options{concs: []int{16}, equalShare: 0.8}, ts, rates, eq)
	for _, want := range []string{"| 16 | 15200 | direct | 15200 | – | 50.0 | 1.00 | 0 |", "| 16 | 15200 | gateway | 7600 (fell behind) | 0.0 | 55.0 | 1.10 | 0 |"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}
