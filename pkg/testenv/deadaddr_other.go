//go:build !unix

package testenv

import "testing"

// deadAddr is a loopback port found free (see deadaddr_unix.go for why a
// bound socket is better where it can be made).
func deadAddr(testing.TB) (string, error) { return freeAddr() }
