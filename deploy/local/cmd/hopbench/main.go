// Command hopbench measures what the gateway hop costs: the same identity
// read (users/get of one organization) is called directly on svc-identity,
// signed as the gateway would, and then through the gateway with real
// credentials, in one run on loopback. It prints requests/s, p50/p99 and the
// process CPU per request of both, and their ratios.
//
//	go run ./deploy/local/cmd/hopbench -duration 10s -concurrency 16
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"time"

	"github.com/opencollab/backend/deploy/local/system"
)

func main() {
	duration := flag.Duration("duration", 8*time.Second, "how long each phase runs")
	concurrency := flag.Int("concurrency", 16, "concurrent clients")
	users := flag.Int("users", 10, "users in the organization read")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *duration, *concurrency, *users); err != nil {
		fmt.Fprintln(os.Stderr, "hopbench:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, d time.Duration, conc, users int) error {
	dir, err := os.MkdirTemp("", "hopbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	sysCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	sys, err := system.Start(sysCtx, system.Options{
		DataDir: dir, GatewayAddr: "127.0.0.1:0", RateLimitPerSecond: -1,
		Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
	})
	if err != nil {
		return err
	}
	c := newCaller(sys, conc)
	if err := c.seed(ctx, users); err != nil {
		return err
	}
	body := []byte(`{"data":{"organizationId":"bench-org"}}`)
	direct := c.load(ctx, c.directRequest(body), d/4, conc) // warm-up
	gw := c.load(ctx, c.gatewayRequest(body), d/4, conc)
	direct = c.load(ctx, c.directRequest(body), d, conc)
	gw = c.load(ctx, c.gatewayRequest(body), d, conc)
	report(os.Stdout, direct, gw, conc)
	cancel()
	return sys.Wait()
}
