//go:build !unix

package gateway

import (
	"net"
	"syscall"
)

// rawSocket: the combined write and wait is for unix sockets only.
func rawSocket(net.Conn) syscall.RawConn { return nil }
