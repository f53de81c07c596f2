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
