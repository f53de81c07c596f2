package main

import (
	"strings"
	"testing"
	"time"
)

// The A/B line sets another build's gateway against this one's in every
// run both took part in, and says nothing when there was no other build.
func TestABLineComparesTheTwoGateways(t *testing.T) {
	t.Parallel()
	run := func(requests, proxyUS int64) *throughput {
		return &throughput{
			counts:   counts{requests: int(requests), elapsed: time.Second},
			proxyCPU: time.Duration(requests*proxyUS) * time.Microsecond,
		}
	}
	o := options{concs: []int{16, 64}, rate: 2000}
	res := newResults()
	res.tp[key{"gateway", 16}], res.tp[key{"gateway-b", 16}] = run(10000, 20), run(11000, 19)
	res.tp[key{"gateway", 64}], res.tp[key{"gateway-b", 64}] = run(12000, 25), run(12000, 25)
	res.eq[key{"gateway", 16}], res.eq[key{"gateway-b", 16}] = run(8000, 30), run(8000, 33)
	res.lat["gateway"] = &latency{cpu: *run(2000, 50)}
	res.lat["gateway-b"] = &latency{cpu: *run(2000, 45)}
	var b strings.Builder
	abLine(&b, o, res)
	want := "gateway-b against gateway (b ÷ a): c=16 CPU 0.950×, throughput 1.100×; c=16 at one rate CPU 1.100×; " +
		"c=64 CPU 1.000×, throughput 1.000×; at 2000 req/s CPU 0.900×\n"
	if got := b.String(); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	delete(res.lat, "gateway-b")
	delete(res.tp, key{"gateway-b", 16})
	delete(res.tp, key{"gateway-b", 64})
	delete(res.eq, key{"gateway-b", 16})
	b.Reset()
	if abLine(&b, o, res); b.Len() != 0 {
		t.Fatalf("a line without another build: %q", b.String())
	}
}
