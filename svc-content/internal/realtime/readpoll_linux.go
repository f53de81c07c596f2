package realtime

import (
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"syscall"
)

// readPoller watches every polled client socket of the process with one
// epoll set. A socket that turns readable is read by one of the poller's
// read workers until it has nothing more: an idle connection costs no
// goroutine (a goroutine blocked in a read held several KiB of stack
// each), and a socket whose messages are being handled is read by no
// second worker meanwhile (see reading.begin).
type readPoller struct {
	epfd    int
	workers *readWorkers
	// waiter holds epfd's *os.File for as long as the process runs: its
	// finalizer would close epfd under the registered sockets.
	waiter *pollWaiter

	mu   sync.Mutex
	byFD map[int]*conn
	// ctls counts epoll_ctl calls: what tests read to see that a
	// message costs none.
	ctls atomic.Int64
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
		poller = &readPoller{epfd: fd, byFD: map[int]*conn{}, workers: newReadWorkers()}
		go poller.loop()
	})
	return poller
}

// pollEvents: readable, or the peer hung up; edge-triggered: reported
// once per arrival of bytes, never again for bytes already reported, so
// a socket stays registered while it is read (see reading.begin).
const pollEvents uint32 = syscall.EPOLLIN | syscall.EPOLLRDHUP | epollET

// epollET is EPOLLET as an event bit (package syscall has it as a
// negative int).
const epollET = 1 << 31

// pollReads hands c's socket to the poller; false when it cannot be
// polled (a goroutine reads it then). sc's descriptor is read directly:
// sc must hold no bytes of its own (a *net.TCPConn, or a wrapper that
// changes only how it is closed, as the gateway's hand-over does).
func pollReads(c *conn, sc syscall.Conn) bool {
	p := sharedPoller()
	if p == nil {
		return false
	}
	raw, err := sc.SyscallConn()
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
	p.ctls.Add(1)
	o := ctlOps.Get().(*ctlOp)
	o.epfd, o.op = p.epfd, op
	cerr := c.rd.raw.Control(o.fn)
	err := o.err
	*o = ctlOp{fn: o.fn}
	ctlOps.Put(o)
	if cerr != nil {
		return cerr
	}
	return err
}

// ctlOp is one epoll_ctl for RawConn.Control, pooled with its function
// bound once (as sockOp).
type ctlOp struct {
	epfd, op int
	ev       syscall.EpollEvent
	err      error
	fn       func(fd uintptr)
}

var ctlOps = sync.Pool{New: func() any {
	o := &ctlOp{}
	o.fn = o.ctl
	return o
}}

func (o *ctlOp) ctl(fd uintptr) {
	o.ev = syscall.EpollEvent{Events: pollEvents, Fd: int32(fd)}
	o.err = syscall.EpollCtl(o.epfd, o.op, int(fd), &o.ev)
}

func (p *readPoller) loop() {
	w := newPollWaiter(p.epfd)
	p.waiter = w
	if w == nil {
		slog.Warn("realtime: the epoll set cannot wait in the runtime's poller; its loop blocks in epoll_wait")
		p.loopBlocking()
		return
	}
	for {
		events, err := w.wait()
		if errors.Is(err, errNotPolled) {
			p.loopBlocking()
			return
		}
		if err != nil {
			slog.Error("realtime: epoll wait failed; polled connections stop being read", "error", err)
			return
		}
		p.start(events)
	}
}

// loopBlocking waits in epoll_wait, holding a P meanwhile (see pollWaiter).
func (p *readPoller) loopBlocking() {
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
		p.start(events[:n])
	}
}

// start has each ready socket read by a read worker.
func (p *readPoller) start(events []syscall.EpollEvent) {
	for _, ev := range events {
		p.mu.Lock()
		c := p.byFD[int(ev.Fd)]
		p.mu.Unlock()
		if c != nil {
			p.workers.dispatch(c)
		}
	}
}

// readSome reads what the socket has without waiting (EAGAIN: nothing).
func readSome(raw syscall.RawConn, p []byte) (int, error) { return sockOnce(raw, p, false) }

// writeSome writes what the socket takes of p without waiting (EAGAIN:
// nothing). A write deadline that has passed fails it before any write.
func writeSome(raw syscall.RawConn, p []byte) (int, error) { return sockOnce(raw, p, true) }

// sockOnce is one non-blocking read or write system call on raw.
func sockOnce(raw syscall.RawConn, p []byte, write bool) (int, error) {
	ops := &readOps
	if write {
		ops = &writeOps
	}
	op := ops.Get().(*sockOp)
	op.p = p
	var err error
	if write {
		err = raw.Write(op.fn)
	} else {
		err = raw.Read(op.fn)
	}
	n, rerr := op.n, op.err
	*op = sockOp{fn: op.fn}
	ops.Put(op)
	if err != nil {
		return 0, err
	}
	return max(n, 0), rerr
}

// sockOp is one read system call for RawConn.Read (readOps) or one
// write for RawConn.Write (writeOps). Its function is bound once and the
// op pooled: a closure per read would cost allocations on
// every message received.
type sockOp struct {
	p   []byte
	n   int
	err error
	fn  func(fd uintptr) bool
}

var readOps = sync.Pool{New: func() any {
	op := &sockOp{}
	op.fn = op.read
	return op
}}

func (op *sockOp) read(fd uintptr) bool {
	op.n, op.err = syscall.Read(int(fd), op.p)
	return true
}

// writeOps are sockOps bound to a write: one attempt, no wait.
var writeOps = sync.Pool{New: func() any {
	op := &sockOp{}
	op.fn = op.write
	return op
}}

func (op *sockOp) write(fd uintptr) bool {
	for {
		op.n, op.err = syscall.Write(int(fd), op.p)
		if op.err != syscall.EINTR {
			return true
		}
	}
}
