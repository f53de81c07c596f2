// Package testenv gives tests real stores: a MongoDB with a fresh database
// per test and a Redis, picked from what the machine offers (env-named
// servers, Docker via testcontainers, local binaries, in-process fallbacks).
//
// Servers shared by a test binary live until the process ends. Packages may
// call Main from TestMain to stop them and delete their files; without it
// they still work, the OS reclaims the in-process servers, Ryuk reaps
// containers, and the next run sweeps leftover temp dirs.
package testenv

import (
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/opencollab/backend/pkg/api"
)

// Environment variables that select backends.
const (
	EnvMongoURI = "TEST_MONGO_URI"
	EnvRedisURL = "TEST_REDIS_URL"
	EnvNoDocker = "TESTENV_NO_DOCKER"
)

var (
	shutdownMu sync.Mutex
	shutdowns  []func()
)

// Main runs the tests and then stops every process-wide server:
//
//	func TestMain(m *testing.M) { testenv.Main(m) }
//
// It also fails the binary when a request body its tests sent was decoded
// into a type with an array that has no named maximum (api.UnboundedArrays):
// every array of every body is bounded by a documented limit.
func Main(m *testing.M) {
	code := m.Run()
	Shutdown()
	if unbounded := api.UnboundedArrays(); len(unbounded) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: request arrays without a named maximum (validate:\"max=@limit\", a limit of the service's table):\n  %s\n",
			strings.Join(unbounded, "\n  "))
		code = 1
	}
	os.Exit(code)
}

// Shutdown stops the shared servers in reverse order of start. Main calls it;
// it is exported for TestMain functions that need their own exit logic.
func Shutdown() {
	sharedTB.runCleanups()
	shutdownMu.Lock()
	fns := shutdowns
	shutdowns = nil
	shutdownMu.Unlock()
	for _, fn := range slices.Backward(fns) {
		fn()
	}
}

// atShutdown registers fn to run in Shutdown.
func atShutdown(fn func()) {
	shutdownMu.Lock()
	defer shutdownMu.Unlock()
	shutdowns = append(shutdowns, fn)
}

// logBackend reports a choice once per process so CI output shows it.
func logBackend(store, backend, where string) {
	slog.Info("testenv: backend chosen", "store", store, "backend", backend, "at", where)
}
