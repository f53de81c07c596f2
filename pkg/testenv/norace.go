//go:build !race

package testenv

// RaceDetector reports whether the race detector is built in: it
// allocates on its own, so tests that count allocations skip under it.
const RaceDetector = false
