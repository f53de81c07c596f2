//go:build !unix

package gateway

import (
	"net"
	"syscall"
)

// rawSocket: the combined write and wait is for unix sockets only.
func rawSocket(net.Conn) syscall.RawConn { return nil }

func writeFD(int, []byte) (int, error) { return 0, syscall.EINVAL }
func readFD(int, []byte) (int, error)  { return 0, syscall.EINVAL }
