package main

import (
	"fmt"
	"io"
)

// report writes the table and returns the events lost over all runs.
func report(w io.Writer, cfg config, rows []result, loadBefore, loadAfter string) int {
	fmt.Fprintf(w, "\ncrashtest: kill -9 of deploy/local under load, %d writes per run, %d workers\n", cfg.writes, cfg.workers)
	fmt.Fprintf(w, "load average before %s, after %s\n\n", loadBefore, loadAfter)
	fmt.Fprintln(w, "| mode | run | killed after | acknowledged | delivered | lost | duplicates | calls cut by the kill | 5xx | slowest answer | answers over 5 s | recovered in |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|")
	lost := map[string]int{}
	acked := map[string]int{}
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %.2f s | %d | %.1f s |\n", r.mode, r.run, r.killedAfter,
			r.acked, r.delivered, r.lost(), r.duplicates, r.failed, r.serverErrors,
			r.slowest.Seconds(), r.overLimit, r.recovery.Seconds())
		lost[r.mode] += r.lost()
		acked[r.mode] += r.acked
	}
	total := 0
	fmt.Fprintln(w)
	for _, m := range cfg.modes {
		fmt.Fprintf(w, "%s: %d lost of %d acknowledged\n", m, lost[m], acked[m])
		total += lost[m]
	}
	return total
}
