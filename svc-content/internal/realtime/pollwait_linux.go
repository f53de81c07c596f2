package realtime

import (
	"errors"
	"os"
	"syscall"
)

// pollWaiter waits for the poller's epoll set to have ready sockets. It
// waits in the Go runtime's own network poller, never in a blocking
// epoll_wait: a goroutine blocked in a system call keeps its P (one of
// GOMAXPROCS) until the runtime's monitor takes it back, and the reads
// the poller had just started (go readReady) sit in that P's run queue
// meanwhile. In a trace of realtimebench's steady phase on 2 cores, with
// the other P running an embedded-store commit, a batch of 17 deliveries
// waited 4 ms so; half the reads waited over 0.2 ms to start.
type pollWaiter struct {
	file   *os.File        // the epoll descriptor, held so it stays open
	raw    syscall.RawConn // file's, registered with the runtime's poller
	events []syscall.EpollEvent
	n      int
	err    error
	take   func(fd uintptr) bool // bound once: a closure per wait would allocate
}

// newPollWaiter registers epfd with the runtime's poller; nil when it
// cannot be (the loop then blocks in epoll_wait itself).
func newPollWaiter(epfd int) *pollWaiter {
	if syscall.SetNonblock(epfd, true) != nil {
		return nil
	}
	f := os.NewFile(uintptr(epfd), "realtime-epoll")
	raw, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	w := &pollWaiter{file: f, raw: raw, events: make([]syscall.EpollEvent, 128)}
	w.take = w.takeReady
	return w
}

// errNotPolled: the runtime cannot wait for the epoll descriptor.
var errNotPolled = errors.New("epoll set not in the runtime's poller")

// wait returns the ready sockets' events, parked in the runtime's poller
// (as a goroutine waiting for a socket is) while there are none.
func (w *pollWaiter) wait() ([]syscall.EpollEvent, error) {
	if err := w.raw.Read(w.take); err != nil {
		return nil, errNotPolled
	}
	if w.err != nil {
		return nil, w.err
	}
	return w.events[:w.n], nil
}

// takeReady takes the ready events without waiting; false (none) has the
// runtime wait until the set is readable again.
func (w *pollWaiter) takeReady(fd uintptr) bool {
	for {
		w.n, w.err = syscall.EpollWait(int(fd), w.events, 0)
		if w.err != syscall.EINTR {
			return w.n > 0 || w.err != nil
		}
	}
}
