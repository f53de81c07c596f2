package events_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/pkg/testenv"
)

// TestRunReturnsPromptlyWhileBlocked: a consumer waiting in its blocking
// read (default 500 ms Block) returns from Run soon after its context ends,
// so a service's Close does not wait out the read.
func TestRunReturnsPromptlyWhileBlocked(t *testing.T) {
	t.Parallel()
	rdb := testenv.Redis(t)
	c := events.NewConsumer(rdb, "g", "c1", []string{"s"}, newRecorder(nil).handle, testLogger(t))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	waitFor(t, "the consumer blocked in XREADGROUP", func() bool {
		list, err := rdb.ClientList(context.Background()).Result()
		return err == nil && strings.Contains(list, "cmd=xreadgroup")
	})
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run returned %v, want nil", err)
		}
		if took := time.Since(start); took > 100*time.Millisecond {
			t.Fatalf("Run returned %v after its context ended, want ≤ 100ms", took)
		}
	case <-time.After(waitTimeout):
		t.Fatal("Run did not return after its context was done")
	}
}
