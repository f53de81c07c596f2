package main

import (
	"fmt"
	"strings"

	"github.com/opencollab/backend/deploy/local/benchkit"
)

// The goals for ours against Hocuspocus at equal load: memory per
// connection at most half of its, delivery p99 at most its, sustained
// (saturated) updates/s at least twice its.
const (
	goalMemory    = 0.5
	goalP99       = 1.0
	goalSustained = 2.0
)

// goalLines compares ours (the first result) with Hocuspocus (the second)
// and says of each goal whether this run met it; none when the run did not
// measure both.
func goalLines(rs []result) []string {
	if len(rs) != 2 {
		return nil
	}
	ours, hp := rs[0], rs[1]
	ratio := func(a, b float64) float64 {
		if b == 0 {
			return 0
		}
		return a / b
	}
	mem := ratio(ours.memPerConn, hp.memPerConn)
	p99 := ratio(float64(ours.p99), float64(hp.p99))
	rate := ratio(ours.sustained, hp.sustained)
	var each []string
	for i := range min(len(ours.rounds), len(hp.rounds)) {
		each = append(each, fmt.Sprintf("%.2f", ratio(ours.rounds[i], hp.rounds[i])))
	}
	perRound := ""
	if len(each) > 1 {
		perRound = "; round by round " + strings.Join(each, " / ")
	}
	verdict := benchkit.Verdict
	if failed := incomplete(ours, hp); failed != "" {
		verdict = func(bool) string { return failed }
	}
	return []string{
		fmt.Sprintf("memory per connection %.2f× Hocuspocus's (goal ≤ %.1f: %s)", mem, goalMemory, verdict(hp.memPerConn > 0 && mem <= goalMemory)),
		fmt.Sprintf("delivery p99 %.2f× Hocuspocus's (goal ≤ %.1f: %s)", p99, goalP99, verdict(hp.p99 > 0 && p99 <= goalP99)),
		fmt.Sprintf("sustained updates/s %.2f× Hocuspocus's (goal ≥ %.1f: %s%s)", rate, goalSustained, verdict(hp.sustained > 0 && rate >= goalSustained), perRound),
	}
}

// incomplete says why a run's figures do not compare the two servers at
// equal load ("" when they do): a server's clients that failed to connect
// or whose connections ended left it less load than the other's.
func incomplete(ours, hp result) string {
	if ours.connectErrs+ours.lost+hp.connectErrs+hp.lost == 0 {
		return ""
	}
	return fmt.Sprintf("not judged, connections failed or lost: ours %d, Hocuspocus %d",
		ours.connectErrs+ours.lost, hp.connectErrs+hp.lost)
}
