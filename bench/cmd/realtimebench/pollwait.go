package main

import (
	"os"
	"syscall"
	"unsafe"
)

// epollWaiter waits for an epoll set's sockets as a goroutine waits for
// one socket: parked in the Go runtime's network poller (the set's
// descriptor is registered there), taking the ready events with a
// non-blocking epoll_wait. A loop blocked in epoll_wait itself holds an OS
// thread in a system call: the runtime's monitor then wakes every 20 µs
// to take its P back and threads are woken to run the other loop and the
// sender (nanosleep and futex calls: 10–15 % of the clients' CPU at
// saturation, more when the server is slower).
type epollWaiter struct {
	file   *os.File // the epoll descriptor; closing it ends wait
	raw    syscall.RawConn
	events []syscall.EpollEvent
	n      int
	err    error
	take   func(fd uintptr) bool // bound once: a closure per wait would allocate
}

func newEpollWaiter(epfd int) (*epollWaiter, error) {
	if err := syscall.SetNonblock(epfd, true); err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(epfd), "realtimebench-epoll")
	raw, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil, err
	}
	w := &epollWaiter{file: f, raw: raw, events: make([]syscall.EpollEvent, 256)}
	w.take = w.takeReady
	return w, nil
}

// wait returns the ready sockets' events, parked while there are none; an
// error once the waiter is closed.
func (w *epollWaiter) wait() ([]syscall.EpollEvent, error) {
	if err := w.raw.Read(w.take); err != nil {
		return nil, err
	}
	if w.err != nil {
		return nil, w.err
	}
	return w.events[:w.n], nil
}

// takeReady takes the ready events without waiting; false (none) parks
// the caller until the set is readable again.
func (w *epollWaiter) takeReady(fd uintptr) bool {
	for {
		w.n, w.err = epollReady(int(fd), w.events)
		if w.err != syscall.EINTR {
			return w.n > 0 || w.err != nil
		}
	}
}

// close wakes a parked wait (it returns an error) and closes the
// descriptor once no wait uses it.
func (w *epollWaiter) close() { w.file.Close() }

// The clients' system calls on their non-blocking descriptors never wait,
// so they are made raw: without telling the scheduler a goroutine entered
// a system call (entersyscall/exitsyscall, and a P handed off when one
// takes long), which syscall.Read and Write do for calls that may block.

// epollReady is epoll_wait with a zero timeout.
func epollReady(epfd int, events []syscall.EpollEvent) (int, error) {
	n, _, e := syscall.RawSyscall6(syscall.SYS_EPOLL_WAIT, uintptr(epfd),
		uintptr(unsafe.Pointer(&events[0])), uintptr(len(events)), 0, 0, 0)
	if e != 0 {
		return 0, e
	}
	return int(n), nil
}

// readNonblock reads a non-blocking socket: EAGAIN when nothing waits.
func readNonblock(fd int, b []byte) (int, error) {
	return rawIO(syscall.SYS_READ, fd, b)
}

// writeNonblock writes a non-blocking socket: EAGAIN when its buffer is full.
func writeNonblock(fd int, b []byte) (int, error) {
	return rawIO(syscall.SYS_WRITE, fd, b)
}

func rawIO(call uintptr, fd int, b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	n, _, e := syscall.RawSyscall(call, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	if e != 0 {
		return 0, e
	}
	return int(n), nil
}
