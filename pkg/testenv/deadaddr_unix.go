//go:build unix

package testenv

import (
	"strconv"
	"syscall"
	"testing"
)

// deadAddr is a loopback address that refuses connections for as long as
// t runs: a socket is bound to it but never listens, so no other test
// (a redis-server started on a free port, say) can take the port, and a
// connection is refused at once. A port found free and released again
// could be taken meanwhile, and the "dead" Redis then answered.
func deadAddr(t testing.TB) (string, error) {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		return "", err
	}
	syscall.CloseOnExec(fd)
	t.Cleanup(func() { _ = syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		return "", err
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		return "", err
	}
	return "127.0.0.1:" + strconv.Itoa(sa.(*syscall.SockaddrInet4).Port), nil
}
