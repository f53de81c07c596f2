package main

import (
	"testing"
	"time"
)

// One small kill -9 run in the embedded mode (FerretDB on SQLite, the
// in-process Redis): every acknowledged activity's webhook must arrive.
// The deterministic, bounded version of `make crashtest`; the kill point
// is random, the expectation is not.
func TestKill9OfDeployLocalLosesNoEvent(t *testing.T) {
	t.Parallel()
	ctx, work, bin := localTest(t)
	// wait: a delivery claimed when the kill lands is retried only once its
	// claim lapses (the request timeout, 15 s, plus 45 s of slack), about a
	// minute after the kill; with the suite's other tests beside it on 2
	// cores, one minute of waiting after the restart ran out once.
	cfg := config{runs: 1, writes: 60, workers: 2, modes: []string{"embedded"}, wait: 3 * time.Minute, bin: bin}
	r, err := runOnce(ctx, cfg, "embedded", 1, work)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("acknowledged %d, delivered %d, all delivered %s after the restart", r.acked, r.delivered, r.recovery.Round(time.Second))
	// The kill lands at a random 30-70 % of the writes, and callers cut by it
	// are not acknowledged: ask only that enough were acknowledged for the
	// count of lost events to mean something.
	if r.acked < cfg.writes/10 || r.lost() != 0 || r.serverErrors != 0 {
		t.Fatalf("acknowledged %d of %d writes, delivered %d (lost %d), 5xx %d; want none lost",
			r.acked, cfg.writes, r.delivered, r.lost(), r.serverErrors)
	}
}
