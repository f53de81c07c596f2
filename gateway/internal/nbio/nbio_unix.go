//go:build (unix && !linux) || (linux && race)

package nbio

import "syscall"

const supported = true

// Read is one read(2) of the non-blocking descriptor fd, retried on
// EINTR; a failed one reports 0 bytes. Outside Linux, and under the race
// detector (which learns from the syscall package's reads and writes that
// a socket's bytes order what its two ends did), it is the syscall
// package's, with the scheduler's bookkeeping.
func Read(fd int, b []byte) (int, error) {
	for {
		n, err := syscall.Read(fd, b)
		if err != syscall.EINTR {
			return max(n, 0), err
		}
	}
}

// Write is one write(2) of the non-blocking descriptor fd, retried on
// EINTR; a failed one reports 0 bytes.
func Write(fd int, b []byte) (int, error) {
	for {
		n, err := syscall.Write(fd, b)
		if err != syscall.EINTR {
			return max(n, 0), err
		}
	}
}
