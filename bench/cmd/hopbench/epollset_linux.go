//go:build linux

package main

import (
	"os"
	"syscall"
	"unsafe"
)

// epollSet is an epoll set waited for in Go's poller, like any socket: its
// descriptor is readable while the set has events. The goroutine running
// it parks when nothing is ready (no thread held in a blocking call) and,
// once woken, serves every ready descriptor. Waiting in a blocking
// epoll_wait on a locked thread instead cost more than the gateway (75
// against 67 µs a request at c=16): each wake had to get a P back from
// the scheduler.
type epollSet struct {
	file   *os.File // the set, as Go's poller waits for it
	ep     int
	events [128]syscall.EpollEvent
}

func newEpollSet() (*epollSet, error) {
	ep, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil, err
	}
	// Non-blocking before os.NewFile, which registers only such a
	// descriptor with the poller.
	if err := syscall.SetNonblock(ep, true); err != nil {
		_ = syscall.Close(ep)
		return nil, err
	}
	return &epollSet{ep: ep, file: os.NewFile(uintptr(ep), "epoll")}, nil
}

// wait calls serve with every batch of ready events until the set's file
// is closed.
func (s *epollSet) wait(serve func([]syscall.EpollEvent)) error {
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
				pollErr = err
				return true
			}
			if n == 0 {
				return false // wait in the poller
			}
			serve(s.events[:n])
		}
	})
	if err != nil {
		return err
	}
	return pollErr
}

func (s *epollSet) poll() (int, error) {
	n, _, errno := syscall.RawSyscall6(syscall.SYS_EPOLL_WAIT, uintptr(s.ep),
		uintptr(unsafe.Pointer(&s.events[0])), uintptr(len(s.events)), 0, 0, 0)
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}

func (s *epollSet) watch(fd int) error {
	return syscall.EpollCtl(s.ep, syscall.EPOLL_CTL_ADD, fd, &syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(fd)})
}
