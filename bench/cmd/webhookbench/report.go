package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"slices"
	"time"
)

// results is everything one run measured.
type results struct {
	delays, calls         []time.Duration
	afterCall             []time.Duration // delay minus call, per activity
	lost                  int
	checks                checks
	loadBefore, loadAfter string
	started               time.Time
	took                  time.Duration
}

func report(w io.Writer, cfg config, r results) {
	fmt.Fprintf(w, "Embedded stack (every service, FerretDB and Redis in one process), calls through the gateway on loopback, "+
		"one activity at a time with a %v pause after each arrival; %d warm-up activities not counted. GOMAXPROCS %d. "+
		"Started %s. Load average (1, 5, 15 min) before: %s; after: %s. Run took %v.\n\n",
		cfg.pause, cfg.warmup, runtime.GOMAXPROCS(0), r.started.UTC().Format("2006-01-02 15:04 UTC"),
		r.loadBefore, r.loadAfter, r.took.Round(time.Second))
	fmt.Fprintf(w, "| measured | n | p50 | p90 | p99 | max |\n|---|---|---|---|---|---|\n")
	row(w, "activities/add sent → webhook arrives", r.delays)
	row(w, "activities/add sent → its 200 (part of the above)", r.calls)
	// The event is published before the 200 is written, so a webhook can
	// arrive first: this row is what delivery adds to a customer's wait.
	row(w, "its 200 → webhook arrives (negative: before the 200)", r.afterCall)
	// On the embedded store a write slows as its collection grows (FerretDB
	// scans), so say whether the run drifted.
	fmt.Fprintf(w, "\nMedian of the first → last quarter of the measured activities: sent → webhook %s → %s; 200 → webhook %s → %s.\n",
		ms(quarterP50(r.delays, 0)), ms(quarterP50(r.delays, 3)), ms(quarterP50(r.afterCall, 0)), ms(quarterP50(r.afterCall, 3)))
	c := r.checks
	fmt.Fprintf(w, "\nDeliveries received: %d; without the Standard Webhooks headers: %d; bad signature: %d; "+
		"duplicates (same webhook-id twice): %d; unmatched: %d. Activities whose webhook did not arrive within %v: %d.\n",
		c.received, c.noHeaders, c.badSignature, c.duplicates, c.unmatched, cfg.wait, r.lost)
}

// row is one table line; percentiles by nearest rank.
func row(w io.Writer, name string, d []time.Duration) {
	if len(d) == 0 {
		fmt.Fprintf(w, "| %s | 0 | – | – | – | – |\n", name)
		return
	}
	s := slices.Sorted(slices.Values(d))
	pct := func(p float64) time.Duration { return s[min(len(s)-1, int(p*float64(len(s))))] }
	fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %s |\n", name, len(s), ms(pct(0.5)), ms(pct(0.9)), ms(pct(0.99)), ms(s[len(s)-1]))
}

// quarterP50 is the median of quarter q (0..3) of d, in send order.
func quarterP50(d []time.Duration, q int) time.Duration {
	part := d[q*len(d)/4 : (q+1)*len(d)/4]
	if len(part) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(part))
	return s[len(s)/2]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

// warn repeats on stderr whatever a delivery got wrong, so it is not
// missed under the table.
func (c checks) warn(ctx context.Context) {
	if c.noHeaders+c.badSignature+c.duplicates > 0 {
		slog.WarnContext(ctx, "deliveries broke the Standard Webhooks contract or came twice",
			"withoutHeaders", c.noHeaders, "badSignature", c.badSignature, "duplicates", c.duplicates)
	}
}
