package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/opencollab/backend/deploy/local/benchkit"
)

// Equal-rate runs. In the closed-loop runs each path sets its own request
// rate, and the upstream's CPU per request follows its rate: a service
// kept less busy wakes from idle, and finds its next request not yet
// there, more often per request. So behind any proxy that passes fewer
// requests than direct, the service costs more per request, whatever the
// proxy sends it. Here every path is driven open loop at one rate, a share
// (-equal-share) of the slowest proxy's closed-loop throughput at that
// concurrency, on as many connections: what is left of the upstream's
// ratio is the work the proxy itself makes the service do.

// equalRates fixes each concurrency's rate from the first round's
// throughput; later rounds keep it, so the rounds add up.
func equalRates(o options, ts []*target, tp map[key]*throughput, rates map[int]int) {
	for _, conc := range o.concs {
		if rates[conc] > 0 {
			continue
		}
		slowest := 0.0
		for _, t := range ts {
			if r := tp[key{t.name, conc}].rps(); t.proxy != nil && r > 0 && (slowest == 0 || r < slowest) {
				slowest = r
			}
		}
		rates[conc] = int(slowest * o.equalShare)
	}
}

// measureEqualRate runs one round of the equal-rate runs, o.slice per path
// and concurrency, with normal scheduling (the load is high: in SCHED_RR
// it would run into the kernel's real-time budget, 95 % of the CPU).
func measureEqualRate(ctx context.Context, o options, s *stack, ts []*target, rates map[int]int, eq map[key]*throughput) error {
	for _, conc := range o.concs {
		if rates[conc] <= 0 {
			continue
		}
		for _, t := range ts {
			r, err := runAtRate(ctx, s, t, conc, rates[conc], o.slice)
			if err != nil {
				return fmt.Errorf("%s at %d/s on %d connections: %w", t.name, rates[conc], conc, err)
			}
			if eq[key{t.name, conc}] == nil {
				eq[key{t.name, conc}] = &throughput{}
			}
			eq[key{t.name, conc}].add(r)
		}
	}
	return nil
}

// runAtRate drives t at rate on conc fresh, warmed connections and charges
// the CPU the proxy and the upstream used meanwhile. The elapsed time runs
// to the last answer: a path that cannot keep the rate takes longer.
func runAtRate(ctx context.Context, s *stack, t *target, conc, rate int, d time.Duration) (throughput, error) {
	conns, err := warmConns(t, conc)
	defer func() {
		for _, c := range conns {
			c.close()
		}
	}()
	if err != nil {
		return throughput{}, err
	}
	up0, px0 := s.upstream.cpu(), t.proxyCPU()
	var (
		samples []time.Duration
		fails   int
	)
	start := time.Now().Add(rateStartDelay)
	withoutGC(func() {
		samples, _, fails, err = constantRate(ctx, conns, buildRequest(t.addr, t.headers()), rate, 0, d)
	})
	if err != nil {
		return throughput{}, err
	}
	return throughput{
		counts:      counts{requests: len(samples), failures: fails, elapsed: time.Since(start)},
		proxyCPU:    t.proxyCPU() - px0,
		upstreamCPU: s.upstream.cpu() - up0,
	}, nil
}

// behindShare: a path whose achieved rate fell under this share of the
// asked one could not keep it, and its row says so.
const behindShare = 0.97

func equalRateTable(w io.Writer, o options, ts []*target, rates map[int]int, eq map[key]*throughput) {
	fmt.Fprintf(w, "\nEqual rate: each path open loop at %.2f× the slowest proxy's requests/s above, on as many connections, normal scheduling; the upstream's CPU per request at one rate for every path\n\n", o.equalShare)
	fmt.Fprintln(w, "| connections | asked req/s | path | achieved req/s | proxy CPU µs/req | upstream CPU µs/req | upstream × direct | failures |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, conc := range o.concs {
		direct := eq[key{"direct", conc}]
		for _, t := range ts {
			r := eq[key{t.name, conc}]
			if r == nil {
				continue
			}
			proxy := proxyPerRequest(t, r)
			achieved := fmt.Sprintf("%.0f", r.rps())
			if r.rps() < behindShare*float64(rates[conc]) {
				achieved += " (fell behind)"
			}
			fmt.Fprintf(w, "| %d | %d | %s | %s | %s | %.1f | %s | %d |\n", conc, rates[conc], t.name, achieved, proxy,
				perRequest(r.upstreamCPU, r), ratio(upstreamPerRequest(r), upstreamPerRequest(direct)), r.failures)
		}
	}
}

// upstreamAtEqualRate is the goal line's clause for the upstream, judged
// at one rate for every path; not judged without equal-rate runs at conc.
func upstreamAtEqualRate(res results, conc int) string {
	d, g, n := res.eq[key{"direct", conc}], res.eq[key{"gateway", conc}], res.eq[key{"nginx", conc}]
	if d == nil || g == nil {
		return fmt.Sprintf("; at one rate: not judged, no equal-rate runs (goal ≤ %.2f; -equal-share)", goalUpstream)
	}
	u := upstreamPerRequest(g) / upstreamPerRequest(d)
	return fmt.Sprintf("; at an equal %d req/s %s× (goal ≤ %.2f: %s%s)", res.eqRates[conc], atMost(u, goalUpstream), goalUpstream,
		benchkit.Verdict(u <= goalUpstream), nginxToo(n, atMost(upstreamPerRequest(n)/upstreamPerRequest(d), goalUpstream)))
}
