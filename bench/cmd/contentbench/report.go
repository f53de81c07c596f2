package main

import (
	"fmt"
	"io"
	"runtime"
	"time"
)

func report(w io.Writer, cfg config, r results) {
	fmt.Fprintf(w, "Embedded stack (FerretDB + in-process Redis), every service and the load generator in one process, "+
		"calls through the gateway on loopback. GOMAXPROCS %d. Load average (1, 5, 15 min) before: %s; after: %s. Run took %v.\n\n",
		runtime.GOMAXPROCS(0), r.loadBefore, r.loadAfter, r.total.Round(time.Second))
	reportThroughput(w, cfg, r.throughput)
	reportSeeding(w, r.steps)
	reportPages(w, r.steps)
}

func reportThroughput(w io.Writer, cfg config, phases []phase) {
	fmt.Fprintf(w, "### Write throughput\n\n")
	fmt.Fprintf(w, "| operation | calls | records/call | clients | calls/s | records/s | p50/call | p99/call | p50 first ¼ → last ¼ of calls | failures |\n")
	fmt.Fprintf(w, "|---|---|---|---|---|---|---|---|---|---|\n")
	perCall := map[string]int{"activities/add": cfg.perActivity, "notifications/add": 1}
	for _, p := range phases {
		fmt.Fprintf(w, "| %s | %d | %d | %d | %.1f | %.0f | %v | %v | %s | %d |\n", p.name, p.calls, perCall[p.name], p.conc,
			p.callsPerSecond(), p.recordsPerSecond(), ms(p.pct(0.5)), ms(p.pct(0.99)), quarters(p), p.failures)
	}
	reportFailures(w, "", phases...)
	fmt.Fprintln(w)
}

func reportSeeding(w io.Writer, steps []step) {
	fmt.Fprintf(w, "### Seeding the data user (every comment written by the user, every notification notifying them)\n\n")
	fmt.Fprintf(w, "| up to | operation | calls | records | clients | elapsed | calls/s | records/s | p50/call | p99/call | p50 first ¼ → last ¼ of calls |\n")
	fmt.Fprintf(w, "|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, s := range steps {
		for _, p := range s.seed {
			fmt.Fprintf(w, "| %d | %s | %d | %d | %d | %v | %.0f | %.0f | %v | %v | %s |\n", s.size, p.name, p.calls, p.records,
				p.conc, p.elapsed.Round(100*time.Millisecond), p.callsPerSecond(), p.recordsPerSecond(), ms(p.pct(0.5)), ms(p.pct(0.99)), quarters(p))
		}
	}
	fmt.Fprintln(w)
}

func reportPages(w io.Writer, steps []step) {
	fmt.Fprintf(w, "### users/data/get first page\n\n")
	fmt.Fprintf(w, "Through the gateway, then its two parts read directly from the services (signed as svc-identity).\n\n")
	fmt.Fprintf(w, "| user's comments | user's notifications | calls | clients | p50 | p99 | mean | failures | page holds | next page | svc-content part p50 / p99 | svc-notify part p50 / p99 |\n")
	fmt.Fprintf(w, "|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, s := range steps {
		p := s.pages
		fmt.Fprintf(w, "| %d | %d | %d | %d | %v | %v | %v | %d | %d comments + %d notifications | %v | %v / %v | %v / %v |\n", s.size, s.size,
			p.calls, p.conc, ms(p.pct(0.5)), ms(p.pct(0.99)), ms(p.mean()), p.failures, p.comments, p.notifications, p.hasNext,
			ms(p.content.pct(0.5)), ms(p.content.pct(0.99)), ms(p.notify.pct(0.5)), ms(p.notify.pct(0.99)))
	}
	if len(steps) > 1 {
		a, b := steps[0].pages, steps[len(steps)-1].pages
		fmt.Fprintf(w, "\nFirst page at %d records of each kind vs %d: p50 ×%.2f, p99 ×%.2f, mean ×%.2f; svc-content part p50 ×%.2f, svc-notify part p50 ×%.2f.\n",
			steps[len(steps)-1].size, steps[0].size, ratio(b.pct(0.5), a.pct(0.5)), ratio(b.pct(0.99), a.pct(0.99)), ratio(b.mean(), a.mean()),
			ratio(b.content.pct(0.5), a.content.pct(0.5)), ratio(b.notify.pct(0.5), a.notify.pct(0.5)))
	}
	fmt.Fprintf(w, "(p99 of %d calls is the slowest call or close to it.)\n", steps[0].pages.calls)
	for _, s := range steps {
		reportFailures(w, fmt.Sprintf(" at %d", s.size), s.pages.phase, s.pages.content, s.pages.notify)
	}
}

// reportFailures names the first failure of each phase that had any.
func reportFailures(w io.Writer, where string, phases ...phase) {
	for _, p := range phases {
		if p.failures > 0 {
			fmt.Fprintf(w, "\n%s%s: %d of %d calls failed (their time counts in the latencies), first: %v\n", p.name, where, p.failures, p.calls, p.firstErr)
		}
	}
}

func quarters(p phase) string {
	first, last := p.firstAndLastQuarter()
	return fmt.Sprintf("%v → %v", ms(first), ms(last))
}

// ms rounds a latency for the tables: 0.1 ms steps.
func ms(d time.Duration) time.Duration { return d.Round(100 * time.Microsecond) }

func ratio(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
