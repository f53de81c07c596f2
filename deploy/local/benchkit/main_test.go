package benchkit

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"
)

func TestExitCodeIsTheToolsVerdict(t *testing.T) {
	cases := []struct {
		name     string
		failures int
		err      error
		want     int
	}{
		{"clean run", 0, nil, 0},
		{"failures counted", 3, nil, 1},
		{"run failed", 0, errors.New("no gateway"), 1},
	}
	for _, c := range cases {
		got := exitCode("tool", func(context.Context) (int, error) { return c.failures, c.err })
		if got != c.want {
			t.Errorf("%s: exit %d, want %d", c.name, got, c.want)
		}
	}
}

// A tool must get the chance to stop its system and remove its data when
// it is terminated, so SIGTERM cancels run's context instead of ending the
// process.
func TestTerminationCancelsTheRun(t *testing.T) {
	code := exitCode("tool", func(ctx context.Context) (int, error) {
		if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
			return 0, err
		}
		select {
		case <-ctx.Done():
			return 0, nil
		case <-time.After(10 * time.Second):
			return 0, errors.New("SIGTERM did not cancel the context")
		}
	})
	if code != 0 {
		t.Fatalf("exit %d: the context was not cancelled", code)
	}
}
