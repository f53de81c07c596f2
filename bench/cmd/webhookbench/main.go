// Command webhookbench measures the delay from an activity being added
// through the gateway (POST /v2/activities/add, one activity a call) to its
// advanced webhook arriving at a loopback receiver, on the embedded stack
// (system.Start: every service, FerretDB and Redis in this one process).
//
// One activity is in flight at a time, and the next is sent only after the
// previous one's webhook has arrived and a short pause has passed, so the
// delivery never has a backlog: this is the delay one event sees, not the
// throughput (svc-workspace's BenchmarkWebhookThroughput measures that).
// Each delivery is also checked for the Standard Webhooks headers and
// signature, and webhook-ids seen twice are counted.
//
// The table goes to stdout, progress to stderr. It stops by itself.
//
//	go run ./bench/cmd/webhookbench
//	go run ./bench/cmd/webhookbench -n 1000 -warmup 50 -pause 20ms
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/opencollab/backend/deploy/local/benchkit"
)

type config struct {
	n, warmup int
	pause     time.Duration // between an arrival and the next send
	wait      time.Duration // longest wait for one activity's webhook
	timeout   time.Duration // the whole run
}

func main() {
	var cfg config
	flag.IntVar(&cfg.n, "n", 300, "measured activities")
	flag.IntVar(&cfg.warmup, "warmup", 20, "activities sent first and not measured (connections, caches, JIT of the stores)")
	flag.DurationVar(&cfg.pause, "pause", 50*time.Millisecond, "pause after each arrival before the next activity, so nothing queues")
	flag.DurationVar(&cfg.wait, "wait", 30*time.Second, "count an activity as lost when its webhook has not arrived after this long")
	flag.DurationVar(&cfg.timeout, "timeout", 15*time.Minute, "give up on the whole run after this long")
	flag.Parse()
	if cfg.n < 1 || cfg.warmup < 0 || cfg.pause < 0 || cfg.wait <= 0 || cfg.timeout <= 0 {
		benchkit.Usage("webhookbench", errors.New("-n must be at least 1, -warmup and -pause not negative, -wait and -timeout positive"))
	}
	benchkit.Main("webhookbench", func(ctx context.Context) (int, error) { return 0, realMain(ctx, cfg) })
}

func realMain(ctx context.Context, cfg config) error {
	ctx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()
	r := results{loadBefore: benchkit.LoadAverage(), started: time.Now()}

	st, err := startStack(ctx)
	if err != nil {
		return err
	}
	defer st.close(ctx)
	slog.InfoContext(ctx, "stack up, webhook endpoint configured", "receiver", st.rcv.url, "endpoint", st.endpointID)

	runID := time.Now().UTC().Format("150405")
	for i := range cfg.warmup + cfg.n {
		measured := i >= cfg.warmup
		s, err := st.one(ctx, fmt.Sprintf("wb_%s_%04d", runID, i), cfg.wait)
		if errors.Is(err, errLost) {
			r.lost++
			slog.WarnContext(ctx, "webhook did not arrive", "activity", i, "wait", cfg.wait)
		} else if err != nil {
			return fmt.Errorf("activity %d: %w", i, err)
		} else if measured {
			r.delays = append(r.delays, s.delay)
			r.calls = append(r.calls, s.call)
			r.afterCall = append(r.afterCall, s.delay-s.call)
		}
		if done := i + 1; done%50 == 0 || done == cfg.warmup {
			slog.InfoContext(ctx, "progress", "sent", done, "of", cfg.warmup+cfg.n, "lost", r.lost)
		}
		if err := sleep(ctx, cfg.pause); err != nil {
			return err
		}
	}
	// A duplicate would come from a retry, seconds later; give the
	// delivery a moment to show one before counting.
	if err := sleep(ctx, settle); err != nil {
		return err
	}
	r.checks = st.rcv.stats()
	r.loadAfter, r.took = benchkit.LoadAverage(), time.Since(r.started)
	report(os.Stdout, cfg, r)
	r.checks.warn(ctx)
	return nil
}

// settle is how long the receiver keeps listening after the last arrival.
const settle = 2 * time.Second

// sleep waits d unless ctx ends first.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
