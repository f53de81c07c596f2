//go:build !linux

package realtime

import (
	"errors"
	"syscall"
)

// pollReads: without epoll every connection reads on a goroutine of its
// own (readBlocking).
func pollReads(*conn, syscall.Conn) bool { return false }

func unpoll(*conn) {}

func readSome(syscall.RawConn, []byte) (int, error) {
	return 0, errors.New("realtime: no poller on this system")
}

func writeSome(syscall.RawConn, []byte) (int, error) {
	return 0, errors.New("realtime: no direct writes on this system")
}
