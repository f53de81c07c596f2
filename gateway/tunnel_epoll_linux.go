package gateway

import (
	"errors"
	"net"
	"sync"
	"syscall"
)

// poller relays the bytes of every TCP tunnel of the gateway from one
// epoll loop: an idle tunnel costs no goroutine (two goroutines blocked in
// splice held about 13 KiB of stack per WebSocket). The loop reads what
// a socket has into its one buffer and writes it to the other end; what
// the other end cannot take yet is kept for that tunnel direction, whose
// source is then not read (back-pressure, nothing unbounded) until the
// destination can be written again.
type poller struct {
	epfd int
	wake [2]int        // a pipe whose read end in the set ends the loop (stop)
	done chan struct{} // closed when the loop has ended

	mu   sync.Mutex
	byFD map[int]*polledTunnel
}

// polledTunnel is a tunnel's two sockets in the poller; only the loop
// touches their state.
type polledTunnel struct {
	tn   *tunnel
	a, b tunnelEnd // client, service
}

// tunnelEnd is one socket of a tunnel.
type tunnelEnd struct {
	raw syscall.RawConn
	fd  int
	// out is what was read from the other end and waits to be written
	// here.
	out []byte
}

// pollReadSize is the loop's read buffer: at most this much moves per
// readiness event.
const pollReadSize = 32 << 10

func newPoller() (*poller, error) {
	fd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil, err
	}
	p := &poller{epfd: fd, byFD: map[int]*polledTunnel{}, done: make(chan struct{})}
	if err := syscall.Pipe2(p.wake[:], syscall.O_NONBLOCK|syscall.O_CLOEXEC); err != nil {
		_ = syscall.Close(fd)
		return nil, err
	}
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(p.wake[0])}
	if err := syscall.EpollCtl(fd, syscall.EPOLL_CTL_ADD, p.wake[0], &ev); err != nil {
		p.closeFDs()
		return nil, err
	}
	go p.loop()
	return p, nil
}

// stop ends the loop (its tunnels are closed by then).
func (p *poller) stop() { _, _ = syscall.Write(p.wake[1], []byte{0}) }

func (p *poller) closeFDs() {
	for _, fd := range []int{p.wake[0], p.wake[1], p.epfd} {
		_ = syscall.Close(fd)
	}
}

// add registers a tunnel between two TCP connections; false when it
// cannot be (the caller copies with goroutines then). Its closeBoth
// deregisters it.
func (p *poller) add(tn *tunnel) bool {
	ca, okA := tn.client.(*net.TCPConn)
	cb, okB := tn.service.(*net.TCPConn)
	if !okA || !okB {
		return false
	}
	pt := &polledTunnel{tn: tn}
	for _, e := range []struct {
		end *tunnelEnd
		c   *net.TCPConn
	}{{&pt.a, ca}, {&pt.b, cb}} {
		raw, err := e.c.SyscallConn()
		if err != nil {
			return false
		}
		e.end.raw = raw
		_ = raw.Control(func(fd uintptr) { e.end.fd = int(fd) })
	}
	if !tn.setBeforeClose(func() { p.remove(pt) }) {
		return false // closed meanwhile
	}
	for _, e := range []*tunnelEnd{&pt.a, &pt.b} {
		if p.ctl(syscall.EPOLL_CTL_ADD, e, syscall.EPOLLIN|syscall.EPOLLRDHUP) != nil {
			tn.closeBoth() // deregisters; run's fallback finds it closed
			return false
		}
	}
	// Known to the loop once both ends are registered (until then their
	// level-triggered events come again).
	p.mu.Lock()
	p.byFD[pt.a.fd], p.byFD[pt.b.fd] = pt, pt
	p.mu.Unlock()
	return true
}

// remove deregisters pt (before its sockets close, so their numbers are
// free for new sockets).
func (p *poller) remove(pt *polledTunnel) {
	p.mu.Lock()
	for _, fd := range []int{pt.a.fd, pt.b.fd} {
		if p.byFD[fd] == pt {
			delete(p.byFD, fd)
		}
	}
	p.mu.Unlock()
	for _, e := range []*tunnelEnd{&pt.a, &pt.b} {
		_ = p.ctl(syscall.EPOLL_CTL_DEL, e, 0)
	}
}

// ctl changes e's registration; the socket's RawConn keeps the number
// from being closed under it.
func (p *poller) ctl(op int, e *tunnelEnd, events uint32) error {
	var err error
	cerr := e.raw.Control(func(fd uintptr) {
		ev := syscall.EpollEvent{Events: events, Fd: int32(fd)}
		err = syscall.EpollCtl(p.epfd, op, int(fd), &ev)
	})
	if cerr != nil {
		return cerr
	}
	return err
}

func (p *poller) loop() {
	defer close(p.done)
	events := make([]syscall.EpollEvent, 256)
	buf := make([]byte, pollReadSize)
	for {
		n, err := syscall.EpollWait(p.epfd, events, -1)
		if err != nil {
			if errors.Is(err, syscall.EINTR) {
				continue
			}
			return
		}
		for _, ev := range events[:n] {
			if int(ev.Fd) == p.wake[0] {
				p.closeFDs()
				return
			}
			p.mu.Lock()
			pt := p.byFD[int(ev.Fd)]
			p.mu.Unlock()
			if pt != nil && !p.serve(pt, int(ev.Fd), ev.Events, buf) {
				pt.tn.closeBoth()
			}
		}
	}
}

// serve handles readiness of the socket fd of pt; false ends the tunnel.
func (p *poller) serve(pt *polledTunnel, fd int, events uint32, buf []byte) bool {
	src, dst := &pt.a, &pt.b
	if fd == pt.b.fd {
		src, dst = &pt.b, &pt.a
	}
	held := src.out != nil || dst.out != nil
	if events&syscall.EPOLLOUT != 0 && len(src.out) > 0 {
		n, err := writeSome(src.raw, src.out)
		if err != nil {
			return false
		}
		src.out = src.out[n:]
		if len(src.out) == 0 {
			src.out = nil
		}
	}
	if events&(syscall.EPOLLHUP|syscall.EPOLLERR) != 0 {
		return false // reported whatever the interest: the socket is done
	}
	if events&(syscall.EPOLLIN|syscall.EPOLLRDHUP) != 0 && dst.out == nil {
		n, err := readSome(src.raw, buf)
		switch {
		case errors.Is(err, syscall.EAGAIN):
		case err != nil || n == 0: // 0 bytes: the peer closed
			return false
		default:
			w, err := writeSome(dst.raw, buf[:n])
			if err != nil {
				return false
			}
			if w < n {
				dst.out = append([]byte(nil), buf[w:n]...)
			}
		}
	}
	if held == (src.out != nil || dst.out != nil) && !held {
		return true // nothing held back before or after: interests unchanged
	}
	return p.rearm(pt) == nil
}

// rearm sets what each socket waits for: input while its direction is not
// held back, output while bytes wait for it.
func (p *poller) rearm(pt *polledTunnel) error {
	for _, e := range []struct{ self, other *tunnelEnd }{{&pt.a, &pt.b}, {&pt.b, &pt.a}} {
		var events uint32
		if e.other.out == nil {
			events |= syscall.EPOLLIN | syscall.EPOLLRDHUP
		}
		if e.self.out != nil {
			events |= syscall.EPOLLOUT
		}
		if err := p.ctl(syscall.EPOLL_CTL_MOD, e.self, events); err != nil {
			return err
		}
	}
	return nil
}

// readSome reads what the socket has without waiting.
func readSome(raw syscall.RawConn, buf []byte) (int, error) {
	var n int
	var err error
	cerr := raw.Read(func(fd uintptr) bool {
		for {
			n, err = syscall.Read(int(fd), buf)
			if !errors.Is(err, syscall.EINTR) {
				return true
			}
		}
	})
	if cerr != nil {
		return 0, cerr
	}
	if n < 0 {
		n = 0
	}
	return n, err
}

// writeSome writes what the socket takes without waiting.
func writeSome(raw syscall.RawConn, b []byte) (int, error) {
	written := 0
	var err error
	cerr := raw.Write(func(fd uintptr) bool {
		for written < len(b) {
			n, werr := syscall.Write(int(fd), b[written:])
			if errors.Is(werr, syscall.EINTR) {
				continue
			}
			if werr != nil {
				if !errors.Is(werr, syscall.EAGAIN) {
					err = werr
				}
				return true
			}
			written += n
		}
		return true
	})
	if cerr != nil {
		return written, cerr
	}
	return written, err
}
