//go:build !unix

package gateway

import (
	"net"
	"testing"
)

// refusedURL returns an address nothing listens on; without a bound socket
// to hold it, a test running in parallel may take the port (rarely).
func refusedURL(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_ = ln.Close()
	return "http://" + ln.Addr().String()
}
