package main

import (
	"errors"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// poller reads every client's socket from a few epoll loops instead of a
// goroutine per connection: one read system call per readiness (level
// triggered: a socket with more waiting is reported again) where Go's
// network poller reads until EAGAIN and reschedules a goroutine for each
// wake-up, which at ~190 000 frames/s was most of the clients' CPU. A loop
// waits in the runtime's poller (epollWaiter), not in epoll_wait.
type poller struct {
	epfds   []int
	waiters []*epollWaiter           // one a loop, on epfds
	conns   []atomic.Pointer[client] // by client index (the epoll event's data)
	wg      sync.WaitGroup
}

func newPoller(clients, loops int) (*poller, error) {
	p := &poller{conns: make([]atomic.Pointer[client], clients)}
	for range loops {
		fd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
		if err != nil {
			p.close()
			return nil, err
		}
		w, err := newEpollWaiter(fd)
		if err != nil {
			syscall.Close(fd)
			p.close()
			return nil, err
		}
		p.epfds, p.waiters = append(p.epfds, fd), append(p.waiters, w)
		p.wg.Go(func() { p.loop(fd, w) })
	}
	return p, nil
}

// add starts reading c, whose socket is non-blocking.
func (p *poller) add(c *client, idx int) error {
	p.conns[idx].Store(c)
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN | syscall.EPOLLRDHUP, Fd: int32(idx)}
	return syscall.EpollCtl(p.epfds[idx%len(p.epfds)], syscall.EPOLL_CTL_ADD, c.fd, &ev)
}

// loop reads the sockets w (waiting on epfd) reports ready until w is closed.
func (p *poller) loop(epfd int, w *epollWaiter) {
	for {
		events, err := w.wait()
		if err != nil {
			return
		}
		for _, ev := range events {
			c := p.conns[ev.Fd].Load()
			if c != nil && !c.readable() {
				p.conns[ev.Fd].Store(nil)
				_ = syscall.EpollCtl(epfd, syscall.EPOLL_CTL_DEL, c.fd, nil)
			}
		}
	}
}

// close stops the loops and waits for them: no client is read after.
// Closing a waiter wakes its parked loop and closes its epoll descriptor.
func (p *poller) close() {
	for _, w := range p.waiters {
		w.close()
	}
	p.wg.Wait()
}

// socketOf takes conn's socket out of Go's network poller: a duplicate of
// its descriptor, non-blocking, for the poller and plain system calls.
func socketOf(conn net.Conn) (int, error) {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return -1, errors.New("not a socket")
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return -1, err
	}
	fd, dupErr := -1, error(nil)
	if err := raw.Control(func(s uintptr) { fd, dupErr = syscall.Dup(int(s)) }); err != nil {
		return -1, err
	}
	if dupErr != nil {
		return -1, dupErr
	}
	syscall.CloseOnExec(fd)
	conn.Close() // closes Go's descriptor only: the socket stays open through fd
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return -1, err
	}
	return fd, nil
}

// fdReader reads a non-blocking socket: EAGAIN when nothing is waiting.
type fdReader struct{ fd int }

func (r fdReader) Read(b []byte) (int, error) {
	n, err := readNonblock(r.fd, b)
	if err != nil {
		return 0, err
	}
	if n == 0 && len(b) > 0 {
		return 0, io.EOF
	}
	return n, nil
}

// writeAll writes b to a non-blocking socket, waiting while its send buffer
// is full (which frames this small only meet with a server that stopped
// reading), for at most 30 s.
func writeAll(fd int, b []byte) error {
	var waited time.Duration
	for len(b) > 0 {
		n, err := writeNonblock(fd, b)
		switch {
		case n > 0:
			b = b[n:]
		case errors.Is(err, syscall.EAGAIN) && waited < 30*time.Second:
			time.Sleep(time.Millisecond)
			waited += time.Millisecond
		case errors.Is(err, syscall.EINTR):
		case err != nil:
			return err
		default:
			return io.ErrShortWrite
		}
	}
	return nil
}
