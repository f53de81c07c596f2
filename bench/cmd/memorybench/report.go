package main

import (
	"fmt"
	"io"
	"runtime"
	"time"
)

func report(w io.Writer, r results) {
	cfg := r.cfg
	fmt.Fprintf(w, "Embedded stack (FerretDB on SQLite, in-process Redis, embedded vector index, hashing embedder): "+
		"every service, the gateway and the load generator in one process, calls through the gateway on loopback, "+
		"rate limit off. GOMAXPROCS %d. Load average (1, 5, 15 min) before: %s; after: %s. System start took %v.\n\n",
		runtime.GOMAXPROCS(0), r.loadBefore, r.loadAfter, r.startup.Round(10*time.Millisecond))
	fmt.Fprintf(w, "Flags: -n %d -batch %d -orgs %d -docs %d -concurrency %d -duration %v -limit %d -poll %v\n\n",
		cfg.n, cfg.batch, cfg.orgs, cfg.docs, cfg.conc, cfg.duration, cfg.limit, cfg.poll)
	reportIngest(w, r.ingest)
	reportLoad(w, r.load)
	reportMemory(w, r)
}

func reportIngest(w io.Writer, in ingest) {
	fmt.Fprintf(w, "### Ingest (activities/add → activity event → judgment → index)\n\n| measure | value |\n|---|---|\n")
	row := func(k, format string, args ...any) {
		fmt.Fprintf(w, "| %s | "+format+" |\n", append([]any{k}, args...)...)
	}
	row("activities posted", "%d of %d, in %d of %d calls of up to %d", in.postedActs, in.n, len(in.callLat), in.calls, in.batch)
	row("posting: first call sent → last call answered", "%v", in.posted.Round(10*time.Millisecond))
	row("add-call rate", "%.2f calls/s, %.0f activities/s", rate(len(in.callLat), in.posted), rate(in.postedActs, in.posted))
	row("activities/add latency p50 / p99 / max", "%v / %v / %v", ms(quantile(in.callLat, 0.5)), ms(quantile(in.callLat, 0.99)), ms(quantile(in.callLat, 1)))
	if in.visibleAt > 0 {
		row("first post → all judgments counted", "%v", in.visibleAt.Round(10*time.Millisecond))
		row("end-to-end ingest rate", "%.0f activities/s", rate(in.n, in.visibleAt))
		row("judgments still to ingest when posting ended", "%d", in.n-int(countAt(in.samples, in.posted)))
	} else {
		row("all judgments counted", "no: %v", in.waitFailed)
		if n := len(in.samples); n > 0 {
			last := in.samples[n-1]
			row("end-to-end ingest rate so far", "%.0f judgments/s (%d in %v)", rate(int(last.count), last.at), last.count, last.at.Round(time.Second))
		}
	}
	row("count polls (search, recency path)", "%s", pollSummary(in))
	row("process CPU during ingest", "%v (%.1f cores on average)", in.cpu.Round(10*time.Millisecond), cores(in.cpu, in.elapsed))
	if l := in.listing; l.pages > 0 || l.err != nil {
		status := "ok"
		if l.err != nil || l.seeded != in.n || l.records != in.n {
			status = fmt.Sprintf("MISMATCH (want %d) %v", in.n, l.err)
		}
		row("judgments/query paged to the end (100 a page)", "%d records (%d seeded) in %d pages, %v: %s",
			l.records, l.seeded, l.pages, l.elapsed.Round(10*time.Millisecond), status)
	}
	fmt.Fprintf(w, "\nHow the judgments arrived (from the polls; a slowing consumer shows as falling rates):\n\n")
	fmt.Fprintf(w, "| judgments counted | reached after | judgments/s since the previous row |\n|---|---|---|\n")
	var prev sample
	for q := 1; q <= 4; q++ {
		s, ok := in.milestone(float64(q) / 4)
		if !ok {
			fmt.Fprintf(w, "| %d%% | not reached | |\n", 25*q)
			continue
		}
		fmt.Fprintf(w, "| %d%% (%d) | %v | %.0f |\n", 25*q, in.n*q/4, s.at.Round(10*time.Millisecond),
			rate(int(s.count-prev.count), s.at-prev.at))
		prev = s
	}
	fmt.Fprintln(w)
}

func reportLoad(w io.Writer, l load) {
	fmt.Fprintf(w, "### Search load (POST /v2/memory/search through the gateway, %d clients, %v)\n\n", l.conc, l.elapsed.Round(100*time.Millisecond))
	fmt.Fprintf(w, "| searches | requests | requests/s | errors | p50 | p90 | p99 | max | service searchLatencyMs p50 / p99 | results per search | short |\n")
	fmt.Fprintf(w, "|---|---|---|---|---|---|---|---|---|---|---|\n")
	all := l.all()
	for _, s := range append([]searches{all}, l.kinds...) {
		fmt.Fprintf(w, "| %s | %d | %.1f | %d | %v | %v | %v | %v | %v / %v | %.1f | %d |\n", s.name, s.requests(), rate(s.requests(), l.elapsed),
			s.errors, ms(quantile(s.latency, 0.5)), ms(quantile(s.latency, 0.9)), ms(quantile(s.latency, 0.99)), ms(quantile(s.latency, 1)),
			ms(quantile(s.service, 0.5)), ms(quantile(s.service, 0.99)), s.meanResults(), s.short)
	}
	fmt.Fprintf(w, "\nOutside the service's own measurement (gateway, auth, HTTP, JSON, waiting for a CPU) at p50: %v. "+
		"Process CPU %v per search (%.1f cores on average).\n",
		ms(quantile(all.latency, 0.5)-quantile(all.service, 0.5)), perRequest(l.cpu, all.requests()), cores(l.cpu, l.elapsed))
	fmt.Fprintf(w, "(short: fewer than -limit results although totalInScope is at least -limit.)\n")
	if wide := l.kinds[0]; wide.anyTotal {
		fmt.Fprintf(w, "Judgments in the workspace while the load ran (totalInScope of the workspace-wide searches): %d → %d.\n", wide.lo, wide.hi)
	}
	for _, s := range l.kinds {
		if s.errors > 0 {
			fmt.Fprintf(w, "\n%s: %d of %d searches failed, first: %v\n", s.name, s.errors, s.requests(), s.firstErr)
		}
		if s.short > 0 {
			fmt.Fprintf(w, "\n%s: %d searches came back short, first: %s\n", s.name, s.short, s.firstShort)
		}
	}
	fmt.Fprintln(w)
}

func reportMemory(w io.Writer, r results) {
	fmt.Fprintf(w, "### Process memory\n\n| when | VmRSS | VmHWM (peak) | Go heap in use |\n|---|---|---|---|\n")
	for _, m := range []struct {
		when string
		m    memory
	}{{"after ingest", r.afterIngest}, {"after search load", r.afterLoad}} {
		fmt.Fprintf(w, "| %s | %s | %s | %.0f MiB |\n", m.when, m.m.rss, m.m.peak, float64(m.m.heap)/(1<<20))
	}
	fmt.Fprintln(w)
}

// countAt is the last polled count at or before t.
func countAt(samples []sample, t time.Duration) int64 {
	var n int64
	for _, s := range samples {
		if s.at > t {
			break
		}
		n = s.count
	}
	return n
}

func rate(n int, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

func cores(cpu, wall time.Duration) float64 {
	if wall <= 0 {
		return 0
	}
	return cpu.Seconds() / wall.Seconds()
}

func perRequest(cpu time.Duration, n int) time.Duration {
	if n == 0 {
		return 0
	}
	return (cpu / time.Duration(n)).Round(10 * time.Microsecond)
}

// ms rounds a latency for the tables: 0.1 ms steps.
func ms(d time.Duration) time.Duration { return d.Round(100 * time.Microsecond) }

// pollSummary says how often the count was polled and what a poll cost:
// the end-to-end time is known to within the last pause.
func pollSummary(in ingest) string {
	if len(in.samples) == 0 {
		return "none"
	}
	var sum time.Duration
	for _, s := range in.samples {
		sum += s.took
	}
	last := in.samples[len(in.samples)-1]
	return fmt.Sprintf("%d, every ≥ %v or 9 × the last poll; mean %v, last %v",
		len(in.samples), in.pollEvery, ms(sum/time.Duration(len(in.samples))), ms(last.took))
}
