//go:build unix

package gateway

import (
	"net"
	"syscall"
)

// rawSocket is c's descriptor access when c is a plain socket.
func rawSocket(c net.Conn) syscall.RawConn {
	if sc, ok := c.(syscall.Conn); ok {
		if raw, err := sc.SyscallConn(); err == nil {
			return raw
		}
	}
	return nil
}

// readFD is one non-blocking read, retried on EINTR; a failed one reports
// 0 bytes (the tunnel relay's, on its own thread).
func readFD(fd int, b []byte) (int, error) {
	for {
		n, err := syscall.Read(fd, b)
		if err != syscall.EINTR {
			return max(n, 0), err
		}
	}
}
