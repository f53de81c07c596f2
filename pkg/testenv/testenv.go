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
	"log/slog"
	"os"
	"slices"
	"sync"
	"testing"
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
func Main(m *testing.M) {
	code := m.Run()
	Shutdown()
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
