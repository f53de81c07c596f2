package main

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/opencollab/backend/deploy/local/internal/localproc"
)

// built is the deploy/local binary the package's tests share: building it
// is most of a test's time, so it is built once (not at all under
// scripts/test.sh, which hands over the one it built in localproc.BinEnv).
var built struct {
	once      sync.Once
	work, bin string
	cleanup   func()
	err       error
}

// localTest skips in -short mode and returns a context bounding the test
// to 3 minutes, the shared work folder and the binary (built on first use).
// The tests run in parallel: each starts its own process on a data
// directory, port and log of its own, and most of a test's time is spent
// waiting for that process (start-up, webhook delivery, the erasure job).
func localTest(t *testing.T) (ctx context.Context, work, bin string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs deploy/local")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	built.once.Do(func() {
		built.work, built.bin, built.cleanup, built.err = localproc.Workspace(ctx, "crashtest", os.Getenv(localproc.BinEnv))
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return ctx, built.work, built.bin
}

// TestMain removes the shared folder after the tests, unless
// KEEP_CRASHTEST is set (to read the logs of deploy/local).
func TestMain(m *testing.M) {
	code := m.Run()
	if built.cleanup != nil && os.Getenv("KEEP_CRASHTEST") == "" {
		built.cleanup()
	}
	os.Exit(code)
}
