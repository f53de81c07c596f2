// Package testalloc measures a code path's allocations in tests.
//
// testing.AllocsPerRun counts every allocation the process makes while
// it runs, other goroutines' included: a previous test's server still
// shutting down, a connection's reader, a timer. On a loaded machine
// (CI's two cores running other packages' tests) those land in the
// measured window and a path that allocates nothing reads as 2 per run.
// They only ever add, so the least of a few measurements is the path's
// own count; a path that allocates does so in every measurement.
package testalloc

import "testing"

// Tries is how many measurements PerRun takes at most.
const Tries = 5

// PerRun is the least of up to Tries testing.AllocsPerRun(runs, f)
// measurements, stopping early at zero.
func PerRun(runs int, f func()) float64 {
	least := testing.AllocsPerRun(runs, f)
	for i := 1; i < Tries && least > 0; i++ {
		least = min(least, testing.AllocsPerRun(runs, f))
	}
	return least
}
