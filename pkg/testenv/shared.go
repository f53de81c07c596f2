package testenv

import (
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"
)

// Shared returns a testing.TB that lives as long as the test binary: its
// cleanups and temp dirs go at the start of Shutdown (Main calls it). It lets TestMain
// start an expensive fixture once (a whole system, say) on the same stores
// the per-test helpers give, and share it among tests:
//
//	url := testenv.RedisURL(testenv.Shared())
//
// Fatalf panics: there is no test to fail yet, and the binary must not run
// its tests on a fixture that did not start.
func Shared() testing.TB { return sharedTB }

// sharedTB's cleanups run first in Shutdown: what they stop is built on the
// process-wide servers.
var sharedTB = &processTB{}

// processTB implements the testing.TB methods the helpers here use; the
// embedded interface only satisfies testing.TB's unexported method and is
// never called.
type processTB struct {
	testing.TB
	mu       sync.Mutex
	cleanups []func()
}

func (p *processTB) Helper()      {}
func (p *processTB) Name() string { return "testenv.Shared" }

func (p *processTB) Cleanup(fn func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cleanups = append(p.cleanups, fn)
}

func (p *processTB) TempDir() string {
	dir, err := os.MkdirTemp("", "testenv-shared-")
	if err != nil {
		p.Fatalf("temp dir: %v", err)
	}
	p.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

func (p *processTB) Logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "testenv.Shared: "+format+"\n", args...)
}

func (p *processTB) Errorf(format string, args ...any) { p.Logf(format, args...) }

func (p *processTB) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf("testenv.Shared: "+format, args...))
}

func (p *processTB) Fatal(args ...any) { p.Fatalf("%s", fmt.Sprint(args...)) }

// runCleanups runs the cleanups last-registered first, like a test's.
func (p *processTB) runCleanups() {
	p.mu.Lock()
	fns := p.cleanups
	p.cleanups = nil
	p.mu.Unlock()
	for _, fn := range slices.Backward(fns) {
		fn()
	}
}
