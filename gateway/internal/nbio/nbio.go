// Package nbio reads and writes the gateway's hot sockets with raw system
// calls: non-blocking reads and writes that skip the Go scheduler's
// syscall bookkeeping (entersyscall and exitsyscall).
//
// Why: that bookkeeping is not only a few hundred instructions per call.
// When every P of the process is idle, the runtime's monitor thread
// (sysmon) sleeps; the next syscall entry wakes it (a futex) and sets it
// polling every 20 µs for a millisecond (a nanosleep each) before it
// sleeps again. A proxy that goes briefly idle between bursts of requests
// paid that cycle over and over: under hopbench at c=64 it was half the
// gateway's futex calls, all of its nanosleeps and about half its context
// switches. A read or write of a non-blocking socket cannot block, so it
// has nothing to hand its P over for: the bookkeeping buys nothing there.
// Waiting (for input, for room to write) stays with Go's poller, deadlines
// included, through syscall.RawConn.
package nbio

import (
	"errors"
	"io"
	"net"
	"os"
	"syscall"
)

// maxRaw is the largest write done as one raw call: a raw call keeps its P
// (and a stop-the-world waits for it), so a long copy into the kernel goes
// the ordinary way.
const maxRaw = 64 << 10

// Socket does a connection's reads and writes as raw calls under Go's
// poller. Like a net.Conn it serves one reader and one writer at a time;
// unlike one, not two readers (or writers) at once.
type Socket struct {
	conn net.Conn
	raw  syscall.RawConn
	r, w op
	// Bound once: a closure made per call would be an allocation.
	readOnce, writeAll func(fd uintptr) bool
}

// op is the state of the read or the write in progress.
type op struct {
	buf []byte
	n   int
	err error
}

// New is a Socket for c, or nil when c is not a socket this package can
// drive (not a plain unix socket, or not on a unix system).
func New(c net.Conn) *Socket {
	if !supported {
		return nil
	}
	switch c.(type) {
	case *net.TCPConn, *net.UnixConn:
	default:
		return nil // TLS, pipes and test doubles keep their own Read and Write
	}
	raw, err := c.(syscall.Conn).SyscallConn()
	if err != nil {
		return nil
	}
	s := &Socket{conn: c, raw: raw}
	s.readOnce, s.writeAll = s.readFD, s.writeFD
	return s
}

// Read is net.Conn's Read: it waits for input (under the read deadline)
// and returns what one read call got; 0 bytes is io.EOF.
func (s *Socket) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	s.r = op{buf: p}
	err := s.raw.Read(s.readOnce)
	n, rerr := s.r.n, s.r.err
	s.r = op{}
	switch {
	case err != nil:
		return 0, err
	case rerr != nil:
		return 0, s.opError("read", rerr)
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

func (s *Socket) readFD(fd uintptr) bool {
	s.r.n, s.r.err = Read(int(fd), s.r.buf)
	return s.r.err != syscall.EAGAIN
}

// ErrWouldBlock is ReadNow's answer when nothing has arrived.
var ErrWouldBlock = errors.New("nbio: no input yet")

// RawRead runs f inside one wait for input (syscall.RawConn.Read): f is
// called once, then again each time the poller reports input, until it
// returns true. Input that arrives after the call began always leads to a
// further call of f, however long f ran: the poller forgets readiness only
// at the start of RawRead. Reads inside f go through ReadNow (the socket's
// Read would wait for RawRead itself); writes may use Write.
func (s *Socket) RawRead(f func(fd uintptr) bool) error { return s.raw.Read(f) }

// ReadNow is one read of fd (the argument of RawRead's f) that does not
// wait: ErrWouldBlock when there is no input, io.EOF at the peer's close.
func (s *Socket) ReadNow(fd uintptr, p []byte) (int, error) {
	n, err := Read(int(fd), p)
	switch {
	case err == syscall.EAGAIN:
		return 0, ErrWouldBlock
	case err != nil:
		return 0, s.opError("read", err)
	case n == 0 && len(p) > 0:
		return 0, io.EOF
	}
	return n, nil
}

// Write is net.Conn's Write: all of p, waiting for room (under the write
// deadline) as needed.
func (s *Socket) Write(p []byte) (int, error) {
	if len(p) > maxRaw {
		return s.conn.Write(p)
	}
	s.w = op{buf: p}
	err := s.raw.Write(s.writeAll)
	n, werr := s.w.n, s.w.err
	s.w = op{}
	switch {
	case err != nil:
		return n, err
	case werr != nil:
		return n, s.opError("write", werr)
	}
	return n, nil
}

func (s *Socket) writeFD(fd uintptr) bool {
	for s.w.n < len(s.w.buf) {
		k, err := Write(int(fd), s.w.buf[s.w.n:])
		s.w.n += k
		switch {
		case err == syscall.EAGAIN:
			return false // wait for room
		case err != nil:
			s.w.err = err
			return true
		case k == 0:
			s.w.err = io.ErrUnexpectedEOF // as internal/poll reports it
			return true
		}
	}
	return true
}

// opError wraps a failed call as net.Conn's methods do.
func (s *Socket) opError(op string, err error) error {
	if err == io.ErrUnexpectedEOF {
		return err
	}
	return &net.OpError{Op: op, Net: s.conn.LocalAddr().Network(), Source: s.conn.LocalAddr(),
		Addr: s.conn.RemoteAddr(), Err: os.NewSyscallError(op, err)}
}
