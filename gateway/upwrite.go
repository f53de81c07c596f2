package gateway

import (
	"io"
	"net"
	"os"
	"syscall"

	"github.com/opencollab/backend/gateway/internal/nbio"
)

// upReader is what an upstream connection's bufio.Reader reads from. A
// request queued with queue is written by the first read, inside the wait
// for the answer: on a plain TCP socket the write and the wait are one
// RawConn.Read, armed before the write, so no read is tried before the
// answer can be there (Go's reads try the socket first and, right after a
// request, always find it empty: one wasted read per request).
//
// Skipping that first try is safe here, not on the client side: the read
// readiness is reset before the request is written, and a service sends
// nothing unasked, so whatever makes the socket readable (the answer, or
// a close) comes after the write and wakes the wait. The write and the
// read are raw calls (nbio): no scheduler bookkeeping, no wake of sysmon.
type upReader struct {
	conn    net.Conn
	raw     syscall.RawConn // nil: TLS, or not a socket (tests)
	pending []byte
	// writeErr is the queued request's write failure, for the retry
	// decision: the service never got the request.
	writeErr error
}

func newUpReader(c net.Conn) *upReader {
	return &upReader{conn: c, raw: rawSocket(c)}
}

// queue has the next read write b first. Without a raw socket, or with
// unread bytes buffered (which would answer the read instead), b is
// written at once.
func (r *upReader) queue(b []byte, buffered int) error {
	if r.raw == nil || buffered > 0 {
		_, err := r.conn.Write(b)
		return err
	}
	r.pending = b
	return nil
}

// takeWriteErr returns and clears the queued request's write failure.
func (r *upReader) takeWriteErr() error {
	err := r.writeErr
	r.writeErr = nil
	return err
}

func (r *upReader) Read(p []byte) (int, error) {
	out := r.pending
	if out == nil {
		return r.conn.Read(p)
	}
	r.pending = nil
	var (
		n          int
		rerr, werr error
		rest       []byte
		written    bool
	)
	err := r.raw.Read(func(fd uintptr) bool {
		if !written {
			written = true
			k, err := nbio.Write(int(fd), out)
			switch {
			case err != nil && err != syscall.EAGAIN:
				werr = err
				return true
			case k < len(out): // a full send buffer: the rest blocks below
				rest = out[k:]
				return true
			}
			return false // wait for the answer
		}
		n, rerr = nbio.Read(int(fd), p)
		return rerr != syscall.EAGAIN
	})
	switch {
	case werr != nil:
		r.writeErr = r.opError("write", werr)
		return 0, r.writeErr
	case err != nil:
		return 0, err
	case rest != nil:
		if _, err := r.conn.Write(rest); err != nil {
			r.writeErr = err
			return 0, err
		}
		return r.conn.Read(p)
	case rerr != nil:
		return 0, r.opError("read", rerr)
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

func (r *upReader) opError(op string, err error) error {
	return &net.OpError{Op: op, Net: "tcp", Source: r.conn.LocalAddr(), Addr: r.conn.RemoteAddr(), Err: os.NewSyscallError(op, err)}
}
