//go:build linux && !race

package nbio

import (
	"syscall"
	"unsafe"
)

const supported = true

// Read is one read(2) of the non-blocking descriptor fd as a raw call,
// retried on EINTR; a failed one reports 0 bytes. fd must be non-blocking:
// a raw call that blocks holds its P.
func Read(fd int, b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	return rawCall(syscall.SYS_READ, fd, b)
}

// Write is one write(2) of the non-blocking descriptor fd as a raw call,
// retried on EINTR; a failed one reports 0 bytes.
func Write(fd int, b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	return rawCall(syscall.SYS_WRITE, fd, b)
}

func rawCall(trap uintptr, fd int, b []byte) (int, error) {
	for {
		n, _, errno := syscall.RawSyscall(trap, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
		switch errno {
		case 0:
			return int(n), nil
		case syscall.EINTR:
			continue
		}
		return 0, errno
	}
}
