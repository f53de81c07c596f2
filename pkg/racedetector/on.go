//go:build race

// Package racedetector tells whether the race detector is built in. It
// allocates on its own, so tests that count allocations skip under it. A
// package of its own, with no imports, so that any module's tests can ask
// without taking on pkg/testenv's dependencies.
package racedetector

// Enabled reports whether the race detector is built in.
const Enabled = true
