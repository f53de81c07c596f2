package realtime

import (
	"errors"
	"log/slog"
	"net"
	"sync"
	"syscall"
)

// readPoller watches every polled client socket of the process with one
// epoll set. A readable socket is taken out of the set (one-shot) and
// read by a goroutine started for it, which puts it back once the socket
// has nothing more: an idle connection costs no goroutine (a goroutine
// blocked in a read held several KiB of stack each), and a socket whose
// messages are being handled is not read meanwhile.
type readPoller struct {
	epfd int

	mu   sync.Mutex
	byFD map[int]*conn
}

var (
	pollerOnce sync.Once
	poller     *readPoller // nil where epoll is unavailable
)

// sharedPoller starts the process's poller on first use.
func sharedPoller() *readPoller {
	pollerOnce.Do(func() {
		fd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
		if err != nil {
			slog.Warn("realtime: no epoll; every connection reads on a goroutine of its own", "error", err)
			return
		}
		poller = &readPoller{epfd: fd, byFD: map[int]*conn{}}
		go poller.loop()
	})
	return poller
}

// pollEvents: readable, or the peer hung up; one-shot.
const pollEvents = syscall.EPOLLIN | syscall.EPOLLRDHUP | syscall.EPOLLONESHOT

// pollReads hands c's socket to the poller; false when it cannot be
// polled (a goroutine reads it then).
func pollReads(c *conn, tcp *net.TCPConn) bool {
	p := sharedPoller()
	if p == nil {
		return false
	}
	raw, err := tcp.SyscallConn()
	if err != nil {
		return false
	}
	fd := -1
	if raw.Control(func(f uintptr) { fd = int(f) }) != nil {
		return false
	}
	c.rd.mu.Lock()
	if c.rd.stop {
		c.rd.mu.Unlock()
		return false // closing: the blocking reader finds the socket closed
	}
	c.rd.raw, c.rd.fd = raw, fd
	c.rd.mu.Unlock()
	p.mu.Lock()
	p.byFD[fd] = c
	p.mu.Unlock()
	if p.ctl(c, syscall.EPOLL_CTL_ADD) != nil {
		c.endReads()
		return true
	}
	c.rd.mu.Lock()
	ended := c.rd.ended
	c.rd.mu.Unlock()
	if ended { // closed while it was being added
		unpoll(c)
	}
	return true
}

// rearm puts c's socket back in the set once it has nothing more to read.
func rearm(c *conn) {
	if err := poller.ctl(c, syscall.EPOLL_CTL_MOD); err != nil {
		c.endReads() // the socket is closed
	}
}

// unpoll takes c's socket out of the set before it is closed.
func unpoll(c *conn) {
	p := poller
	p.mu.Lock()
	if p.byFD[c.rd.fd] == c {
		delete(p.byFD, c.rd.fd)
	}
	p.mu.Unlock()
	_ = p.ctl(c, syscall.EPOLL_CTL_DEL)
}

// ctl changes c's registration; the socket's RawConn keeps its number
// from being closed and reused meanwhile.
func (p *readPoller) ctl(c *conn, op int) error {
	var err error
	cerr := c.rd.raw.Control(func(fd uintptr) {
		ev := syscall.EpollEvent{Events: pollEvents, Fd: int32(fd)}
		err = syscall.EpollCtl(p.epfd, op, int(fd), &ev)
	})
	if cerr != nil {
		return cerr
	}
	return err
}

func (p *readPoller) loop() {
	events := make([]syscall.EpollEvent, 128)
	for {
		n, err := syscall.EpollWait(p.epfd, events, -1)
		if err != nil {
			if errors.Is(err, syscall.EINTR) {
				continue
			}
			slog.Error("realtime: epoll wait failed; polled connections stop being read", "error", err)
			return
		}
		for _, ev := range events[:n] {
			p.mu.Lock()
			c := p.byFD[int(ev.Fd)]
			p.mu.Unlock()
			if c != nil {
				go c.readReady()
			}
		}
	}
}

// readSome reads what the socket has without waiting (EAGAIN: nothing).
func readSome(raw syscall.RawConn, p []byte) (int, error) {
	var n int
	var rerr error
	err := raw.Read(func(fd uintptr) bool {
		n, rerr = syscall.Read(int(fd), p)
		return true
	})
	if err != nil {
		return 0, err
	}
	if n < 0 {
		n = 0
	}
	return n, rerr
}
