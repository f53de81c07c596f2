//go:build !linux

package main

// runInForeground is Linux-only; elsewhere the stack runs as is.
func runInForeground() (code int, ok bool) { return 0, false }
