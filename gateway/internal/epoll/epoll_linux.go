//go:build linux

// Package epoll is an epoll set waited for in Go's poller, like any socket:
// its descriptor is readable while the set has events. The goroutine
// serving it parks when nothing is ready (no thread held in a blocking
// call) and, once woken, serves every ready descriptor in one go. This is
// what lets many answers share one wake (the gateway's answer loops).
package epoll

import (
	"errors"
	"os"
	"syscall"
	"unsafe"
)

// Set is an epoll set of edge-triggered read interests.
type Set struct {
	file   *os.File // the set, as Go's poller waits for it
	ep     int
	events [128]syscall.EpollEvent
	fds    [128]int32
}

// Supported reports whether New can work here.
const Supported = true

// New makes an empty set.
func New() (*Set, error) {
	ep, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil, os.NewSyscallError("epoll_create1", err)
	}
	// Non-blocking before os.NewFile, which registers only such a
	// descriptor with the poller.
	if err := syscall.SetNonblock(ep, true); err != nil {
		_ = syscall.Close(ep)
		return nil, err
	}
	return &Set{ep: ep, file: os.NewFile(uintptr(ep), "epoll")}, nil
}

// Watch adds fd, edge-triggered: an event each time input arrives (or the
// peer closes or fails). A closed descriptor leaves the set by itself.
func (s *Set) Watch(fd int) error {
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN | syscall.EPOLLRDHUP | -syscall.EPOLLET, Fd: int32(fd)}
	return os.NewSyscallError("epoll_ctl", syscall.EpollCtl(s.ep, syscall.EPOLL_CTL_ADD, fd, &ev))
}

// Wait calls serve with the descriptors of every batch of events until
// the set is closed; it then returns nil.
func (s *Set) Wait(serve func(fds []int32)) error {
	rc, err := s.file.SyscallConn()
	if err != nil {
		return err
	}
	var pollErr error
	err = rc.Read(func(uintptr) bool {
		for {
			n, err := s.poll()
			if err == syscall.EINTR {
				continue
			}
			if err != nil {
				pollErr = os.NewSyscallError("epoll_wait", err)
				return true
			}
			if n == 0 {
				return false // wait in the poller
			}
			for i := range n {
				s.fds[i] = s.events[i].Fd
			}
			serve(s.fds[:n])
			if n < len(s.events) {
				// Every event was taken. One that comes from now on
				// makes the set readable anew, which Go's poller
				// reports even while serve runs: wait without another
				// epoll_wait, which would find nothing.
				return false
			}
		}
	})
	if err != nil {
		if errors.Is(err, os.ErrClosed) {
			return nil
		}
		return err
	}
	return pollErr
}

func (s *Set) poll() (int, error) {
	n, _, errno := syscall.RawSyscall6(syscall.SYS_EPOLL_WAIT, uintptr(s.ep),
		uintptr(unsafe.Pointer(&s.events[0])), uintptr(len(s.events)), 0, 0, 0)
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}

// Close ends Wait.
func (s *Set) Close() error { return s.file.Close() }
