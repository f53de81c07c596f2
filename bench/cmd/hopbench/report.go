package main

import (
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/opencollab/backend/deploy/local/benchkit"
)

// Goals of the gateway hop (issue 13).
const (
	goalThroughput = 0.6  // gateway requests/s ≥ 0.6 × direct
	goalProxyCPU   = 1.25 // gateway CPU/request ≤ 1.25 × nginx's
	goalUpstream   = 1.1  // upstream CPU/request behind the gateway ≤ 1.1 × direct
	goalAddedP99   = 200 * time.Microsecond
)

func (t *throughput) rps() float64 {
	if t == nil || t.elapsed <= 0 {
		return 0
	}
	return float64(t.requests) / t.elapsed.Seconds()
}

// perRequest is CPU µs per request.
func perRequest(cpu time.Duration, t *throughput) float64 {
	if t == nil || t.requests == 0 {
		return 0
	}
	return float64(cpu.Microseconds()) / float64(t.requests)
}

// proxyPerRequest is the proxy's CPU µs per request of r, "–" for direct.
func proxyPerRequest(t *target, r *throughput) string {
	if t.proxy == nil {
		return "–"
	}
	return fmt.Sprintf("%.1f", perRequest(r.proxyCPU, r))
}

// upstreamPerRequest is t's upstream CPU µs per request, 0 for no run
// (a run without -targets direct has no direct row).
func upstreamPerRequest(t *throughput) float64 {
	if t == nil {
		return 0
	}
	return perRequest(t.upstreamCPU, t)
}

func report(w io.Writer, o options, ts []*target, res results, exports int64, useWrk bool) {
	client := "wrk -t2"
	if !useWrk {
		client = "Go closed-loop client (wrk not installed)"
	}
	fmt.Fprintf(w, "users/get on a Gin stand-in service, loopback, %d CPUs, %d interleaved rounds of %s runs; throughput by %s\n",
		runtime.NumCPU(), o.rounds, o.slice, client)
	if o.upServer != upstreamNetHTTP {
		fmt.Fprintf(w, "upstream served by %s, not pkg/server's net/http\n", o.upServer)
	}
	if o.proxyCores > 0 {
		fmt.Fprintf(w, "proxies limited to %d core(s): nginx worker_processes, gateway GOMAXPROCS\n", o.proxyCores)
	}
	fmt.Fprintf(w, "tracing on: OTEL_TRACES_SAMPLER=parentbased_traceidratio, ratio %g, OTLP export (%d batches received)\n\n", o.sampleRatio, exports)

	if !o.latencyOnly {
		throughputTable(w, o, ts, res.tp)
		if len(res.eq) > 0 {
			equalRateTable(w, o, ts, res.eqRates, res.eq)
		}
	}
	latencyTable(w, o, ts, res.lat)
	fmt.Fprintln(w)
	goals(w, o, res)
	abLine(w, o, res)
}

func throughputTable(w io.Writer, o options, ts []*target, tp map[key]*throughput) {
	fmt.Fprintln(w, "| connections | path | requests/s | × direct | proxy CPU µs/req | upstream CPU µs/req | upstream × direct | failures |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, conc := range o.concs {
		direct := tp[key{"direct", conc}]
		for _, t := range ts {
			r := tp[key{t.name, conc}]
			proxy := proxyPerRequest(t, r)
			fmt.Fprintf(w, "| %d | %s | %.0f | %s | %s | %.1f | %s | %d |\n", conc, t.name, r.rps(),
				ratio(r.rps(), direct.rps()), proxy, perRequest(r.upstreamCPU, r),
				ratio(upstreamPerRequest(r), upstreamPerRequest(direct)), r.failures)
		}
	}
}

// latencyTable: each figure is the median over the rounds of the round's
// own, an added one of the path's minus direct's in the same round.
func latencyTable(w io.Writer, o options, ts []*target, lat map[string]*latency) {
	sched := "normal scheduling"
	if o.latencyRT {
		sched = "load generator, upstream and proxies in SCHED_RR"
	}
	if o.pollIdle {
		sched += ", idle CPUs polling"
	}
	fmt.Fprintf(w, "\nOpen loop at %d req/s, %d warm connections, paths taken in turn for %s at a time (each turn led in by %s at the rate, not measured), %s; p50, p99 and added: median over the %d rounds of each round's figure (added: minus direct's in the same round); by piece: median over every %s piece of its p99 minus direct's in the same turn, [interval]\n\n",
		o.rate, latencyWorkers, latencyPiece, turnLeadIn, sched, o.rounds, latencyPiece)
	fmt.Fprintln(w, "| path | p50 | p99 | p99 per round | added p50 | added p99 | added p99 by piece | proxy CPU µs/req | upstream CPU µs/req | upstream × direct | failures |\n|---|---|---|---|---|---|---|---|---|---|---|")
	direct := lat["direct"]
	var directUp *throughput
	if direct != nil {
		directUp = &direct.cpu
	}
	for _, t := range ts {
		l := lat[t.name]
		var rounds []string
		for _, d := range l.perRound(0.99) {
			rounds = append(rounds, strconv.FormatInt(d.Microseconds(), 10))
		}
		proxy := proxyPerRequest(t, &l.cpu)
		fmt.Fprintf(w, "| %s | %s | %s | %s µs | %s | %s | %s | %s | %.1f | %s | %d |\n", t.name, us(l.pct(0.5)), us(l.pct(0.99)),
			strings.Join(rounds, ", "), us(l.added(direct, 0.5)), us(l.added(direct, 0.99)),
			estimatePaired(l.pairedAdded(direct, 0.99)), proxy,
			upstreamPerRequest(&l.cpu), ratio(upstreamPerRequest(&l.cpu), upstreamPerRequest(directUp)), l.failures)
	}
	resumeLine(w, ts, lat)
}

// resumeLine gives what the table leaves out: how each path answers its
// first requests after the other paths' turns (turnLeadIn).
func resumeLine(w io.Writer, ts []*target, lat map[string]*latency) {
	var each []string
	for _, t := range ts {
		if r := lat[t.name].resumes; len(r) > 0 {
			each = append(each, t.name+" "+us(median(r)))
		}
	}
	if len(each) > 0 {
		fmt.Fprintf(w, "\nResuming after the other paths' turns (the first %s of each turn, not in the table): the slowest request of the %s, median over the turns: %s\n",
			turnLeadIn, turnLeadIn, strings.Join(each, ", "))
	}
}

// goals prints each goal of the gateway against this run's figures, with
// nginx's figure beside it when nginx ran: on a slow or shared machine a
// goal nginx misses as well says more about the machine than the gateway.
// The upstream's goal is judged at one rate for every path (the
// equal-rate runs); the added p99 is judged by piece, and not judged when
// its interval spans the goal.
func goals(w io.Writer, o options, res results) {
	tp, lat := res.tp, res.lat
	for _, conc := range o.concs {
		d, g, n := tp[key{"direct", conc}], tp[key{"gateway", conc}], tp[key{"nginx", conc}]
		if d == nil || g == nil {
			continue
		}
		r := g.rps() / d.rps()
		fmt.Fprintf(w, "c=%d: gateway throughput %s× direct (goal ≥ %.2f: %s%s)", conc, atLeast(r, goalThroughput), goalThroughput,
			benchkit.Verdict(r >= goalThroughput), nginxToo(n, atLeast(n.rps()/d.rps(), goalThroughput)))
		if n != nil {
			c := perRequest(g.proxyCPU, g) / perRequest(n.proxyCPU, n)
			fmt.Fprintf(w, "; gateway CPU %s× nginx's (goal ≤ %.2f: %s)", atMost(c, goalProxyCPU), goalProxyCPU, benchkit.Verdict(c <= goalProxyCPU))
		}
		// In closed loop each path sets its own rate, and the service's CPU
		// per request follows its rate (fourteenth pass): the figure is
		// shown, the goal judged where the rates are equal.
		fmt.Fprintf(w, "; upstream CPU %.2f× direct in closed loop, at its own rate (not judged%s)", upstreamPerRequest(g)/upstreamPerRequest(d),
			nginxToo(n, fmt.Sprintf("%.2f", upstreamPerRequest(n)/upstreamPerRequest(d))))
		fmt.Fprintln(w, upstreamAtEqualRate(res, conc))
	}
	d, g := lat["direct"], lat["gateway"]
	if d == nil || g == nil {
		return
	}
	// Judged by piece: a stall of the shared machine moves one pair of
	// pieces, while the round figure moved by more than the goal from
	// round to round (pieces.go).
	est := estimatePaired(g.pairedAdded(d, 0.99))
	fmt.Fprintf(w, "gateway adds %s at p99 at %d req/s (median of %d paired %s pieces, %.0f %% interval; goal ≤ %s: %s",
		est, o.rate, est.pairs, latencyPiece, 100*est.confidence, us(goalAddedP99), est.verdict(goalAddedP99))
	if n := lat["nginx"]; n != nil {
		fmt.Fprintf(w, "; nginx adds %s", estimatePaired(n.pairedAdded(d, 0.99)))
	}
	fmt.Fprintln(w, ")")
}

// nginxToo is "; nginx ratio×" when nginx ran (n's figures read as zero
// when it did not).
func nginxToo(n *throughput, ratio string) string {
	if n == nil {
		return ""
	}
	return "; nginx " + ratio + "×"
}

// atMost and atLeast print a ratio judged against a goal (≤ goal, ≥ goal)
// with two decimals, or with three where two would round it onto the goal
// from the wrong side: 1.104 against ≤ 1.10 reads 1.104, not a 1.10
// marked MISSED.
func atMost(v, goal float64) string  { return goalRatio(v, goal, v <= goal) }
func atLeast(v, goal float64) string { return goalRatio(v, goal, v >= goal) }

func goalRatio(v, goal float64, met bool) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	if !met && s == strconv.FormatFloat(goal, 'f', 2, 64) {
		return strconv.FormatFloat(v, 'f', 3, 64)
	}
	return s
}

func ratio(a, b float64) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", a/b)
}

func us(d time.Duration) string { return fmt.Sprintf("%d µs", d.Microseconds()) }
