//go:build unix

package gateway

import (
	"fmt"
	"syscall"
	"testing"
)

// refusedURL returns an http:// address on which every connection is
// refused, and keeps it so for the whole test. A listener opened and closed
// frees its port, and a test running in parallel can bind it before the
// request is sent (once another test's gateway answered 403 there); a socket
// bound but never listening holds the port and refuses every connection.
func refusedURL(t testing.TB) string {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("http://127.0.0.1:%d", sa.(*syscall.SockaddrInet4).Port)
}
