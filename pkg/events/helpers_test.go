package events_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/pkg/testenv"
)

// waitTimeout bounds every wait; it is a deadline for a hung test, not a
// timing assertion.
const waitTimeout = 15 * time.Second

// fast makes reads, reclaims and retries quick enough for tests.
var fast = events.Options{Block: 50 * time.Millisecond, ClaimInterval: 50 * time.Millisecond, MinIdle: 100 * time.Millisecond, RetryPause: 50 * time.Millisecond}

func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// waitFor polls cond until it holds or waitTimeout passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// run starts c and stops it when the test ends, checking Run returns nil.
func run(t *testing.T, c *events.Consumer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run returned %v, want nil", err)
			}
		case <-time.After(waitTimeout):
			t.Error("Run did not return after its context was done")
		}
	})
}

// deadRedis is a client for a port nobody listens on.
func deadRedis(t *testing.T) *redis.Client { return testenv.DeadRedis(t) }

func pendingCount(t *testing.T, rdb *redis.Client, stream, group string) int64 {
	t.Helper()
	p, err := rdb.XPending(context.Background(), stream, group).Result()
	if err != nil {
		t.Fatal(err)
	}
	return p.Count
}

func newEvent(t *testing.T, typ string, data any) events.Event {
	t.Helper()
	e, err := events.New(typ, "test", "ws_1", "org_1", "doc_1", data)
	if err != nil {
		t.Fatal(err)
	}
	return e
}
