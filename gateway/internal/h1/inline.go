package h1

import (
	"errors"
	"net/http"

	"github.com/opencollab/backend/gateway/internal/nbio"
)

// Serving inside the wait for input.
//
// Go's poller forgets a socket's readiness each time a read begins
// (internal/poll's prepareRead), so a read that followed an answer had to
// try the socket before it could wait: input that came in meanwhile would
// otherwise never wake it. Right after an answer the client has rarely
// sent its next request yet: that try found the socket empty for most
// requests, a wasted read(2) each.
//
// Instead a connection waits for requests inside one syscall.RawConn.Read
// and answers the requests that need no further input (no body, or one
// that came whole with the head; no upgrade) from within it. Readiness is
// forgotten only when that wait begins; input arriving later, while a
// request is served or after its answer, makes the wait call us again.
// After an answer whose request came with a read that found the socket
// drained (fewer bytes than asked, as nginx assumes with epoll), it waits
// without reading. A request that needs more (an incomplete head, a body
// still to come or chunked, an upgrade) is finished outside, the ordinary
// way, and the next wait begins with a read again.
//
// While a handler runs in here the socket's read lock is held: nothing
// else may read the connection, so Hijack is refused (an upgrade request,
// the one that hijacks, is always served outside), and closing the socket
// waits for the handler (Server.Close shuts such a connection down first).

// noRawFD: the connection is not inside the wait.
const noRawFD = ^uintptr(0)

// afterWait is what the connection does once the wait is left.
type afterWait uint8

const (
	afterEnd     afterWait = iota // close the connection
	afterRespond                  // answer c.req, parsed in the wait
	afterHead                     // finish reading a head begun in the wait
)

// errHijackInline answers a Hijack of a request served inside the wait.
var errHijackInline = errors.New("h1: Hijack needs a request with an Upgrade field")

// next serves the connection's next requests; false ends the connection.
func (c *conn) next() bool {
	if c.sock == nil {
		return c.serveOne()
	}
	c.after = afterEnd
	if err := c.sock.RawRead(c.serveArrived); err != nil {
		return false // closed, or the idle deadline passed
	}
	switch c.after {
	case afterRespond:
		return c.respond(c.req)
	case afterHead:
		return c.serveOne()
	}
	return false
}

// serveArrived is the wait's callback: it serves the requests that have
// arrived and returns false to wait for more input, true to leave the
// wait (c.after says for what).
func (c *conn) serveArrived(fd uintptr) bool {
	c.rawFD = fd
	leave := c.serveBuffered()
	c.rawFD = noRawFD
	return leave
}

func (c *conn) serveBuffered() bool {
	// A call begins with a read: the wait has just begun (anything may
	// have come since the last read), or the poller reported input.
	mustRead := true
	for {
		if c.br.Buffered() == 0 {
			if !c.goIdle() {
				return true
			}
			if !mustRead && c.drained {
				c.syncReadDeadline() // the idle deadline, for the wait
				return false
			}
			mustRead = false
			if _, err := c.br.Peek(1); err != nil {
				return err != nbio.ErrWouldBlock
			}
		}
		if !c.goActive() {
			return true
		}
		p, _ := c.br.Peek(c.br.Buffered())
		if n := headEnd(p); n == 0 || n > c.srv.headLimit() {
			c.after = afterHead
			return true
		}
		r, ok := c.readRequest()
		if !ok {
			return true
		}
		if !servesInline(r, c) {
			c.after = afterRespond
			return true
		}
		if !c.respond(r) {
			return true
		}
	}
}

// readNow is socketReader's read inside the wait.
func (c *conn) readNow(p []byte) (int, error) {
	n, err := c.sock.ReadNow(c.rawFD, p)
	c.drained = n < len(p)
	return n, err
}

// servesInline reports whether r can be answered inside the wait: the
// handler needs no more input from the socket (no body, or a sized one
// that has come whole with the head, as a small API call's does) and will
// not hijack it.
func servesInline(r *http.Request, c *conn) bool {
	switch {
	case r.Method == http.MethodConnect:
		return false
	case r.Body == http.NoBody:
	case r.ContentLength <= 0 || r.ContentLength > int64(c.br.Buffered()):
		return false
	}
	if !c.listed {
		return len(r.Header["Upgrade"]) == 0
	}
	return !listed(c.fields, "Upgrade")
}
