package main

import (
	"fmt"
	"io"
	"slices"
)

// report writes the table and returns the calls that went wrong: 5xx other
// than a stale token's 503, and 503s without Retry-After.
func report(w io.Writer, cfg config, phases []*tally, loadBefore, loadAfter string) int {
	fmt.Fprintf(w, "\noutagetest: Redis stopped under load, %d callers, %s per phase\n", cfg.workers, cfg.phase)
	fmt.Fprintf(w, "load average before %s, after %s\n\n", loadBefore, loadAfter)
	fmt.Fprintln(w, "| phase | operation | calls | 2xx | 4xx | 503 | other 5xx | no answer | slowest | over 5 s |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|")
	bad := 0
	for _, t := range phases {
		ops := make([]string, 0, len(t.counts))
		for op := range t.counts {
			ops = append(ops, op)
		}
		slices.Sort(ops)
		for _, op := range ops {
			c := t.counts[op]
			fmt.Fprintf(w, "| %s | %s | %d | %d | %d | %d | %d | %d | %.2f s | %d |\n", t.name, op, c.calls, c.ok, c.clientErr,
				c.unavailable, c.otherServerErr, c.noAnswer, c.slowest.Seconds(), c.overLimit)
			bad += c.otherServerErr + c.noAnswer + c.noRetryAfter + c.overLimit
			if op != staleOp {
				bad += c.unavailable
			}
		}
	}
	fmt.Fprintf(w, "\nunexpected answers (5xx other than a stale page token's 503, no answer, 503 without Retry-After, over 5 s): %d\n", bad)
	return bad
}
