package h1

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/opencollab/backend/gateway/internal/httpfield"
	"github.com/opencollab/backend/gateway/internal/nbio"
)

// Connection states, for Shutdown: only an idle connection may be closed
// under the client.
const (
	stateActive int32 = iota
	stateIdle
	stateClosed
	stateHijacked
)

const (
	readBufferSize = 4 << 10
	// maxPostHandlerRead is how much unread body is discarded to keep a
	// connection, as net/http does.
	maxPostHandlerRead = 256 << 10
)

// conn serves the requests of one connection, one after the other, reusing
// the request, its header map and the buffers for each.
type conn struct {
	srv *Server
	nc  net.Conn
	// sock reads and writes nc with raw syscalls (nbio); nil: nc's own.
	sock      *nbio.Socket
	br        *bufio.Reader
	state     atomic.Int32
	head      []byte
	vals      []string // backing array of the request's header values
	reqHeader http.Header
	// fields are reqHeader's fields in the client's order, when listed.
	fields []httpfield.Field
	listed bool
	req    *http.Request
	url    url.URL
	body   body
	resp   response
	dl     deadlines
	// rawFD is the socket while the connection serves inside the wait for
	// input (inline.go), noRawFD otherwise; drained: the last read there
	// found the socket empty; after: what follows that wait.
	rawFD   uintptr
	drained bool
	after   afterWait
}

func newConn(s *Server, nc net.Conn) *conn {
	c := &conn{srv: s, nc: nc, rawFD: noRawFD}
	c.state.Store(stateIdle)
	return c
}

// closeIfIdle closes the connection if it waits for a request.
func (c *conn) closeIfIdle() bool {
	if c.state.CompareAndSwap(stateIdle, stateClosed) {
		_ = c.nc.Close()
		return true
	}
	return c.state.Load() == stateClosed
}

func (c *conn) serve(base context.Context) {
	// No cancel of its own: with no background read nothing would cancel
	// it while a request runs, and a context that cannot be cancelled lets
	// handlers skip watching it (the gateway's upstream hop does).
	ctx := context.WithValue(base, http.LocalAddrContextKey, c.nc.LocalAddr())
	defer func() {
		if c.state.Load() != stateHijacked {
			c.state.Store(stateClosed)
			_ = c.nc.Close()
			c.srv.track(c, false)
		}
	}()
	c.init(ctx)
	for c.next() {
	}
}

// init makes what every request of the connection reuses.
func (c *conn) init(ctx context.Context) {
	c.sock = nbio.New(c.nc)
	c.br = bufio.NewReaderSize(socketReader{c}, readBufferSize)
	c.head = make([]byte, 0, readBufferSize)
	c.vals = make([]string, 0, 32)
	if c.srv.ListFields {
		// It holds what the handler sets (a field or two): a small map
		// is cheaper to clear per request.
		c.reqHeader = http.Header{}
	} else {
		c.reqHeader = make(http.Header, 16)
	}
	c.fields = make([]httpfield.Field, 0, 16)
	c.req, _ = http.NewRequestWithContext(ctx, http.MethodGet, "/", nil)
	c.req.RemoteAddr = c.nc.RemoteAddr().String()
	c.body = body{c: c, br: c.br}
	c.dl.slack = c.srv.deadlineSlack()
	c.resp = response{c: c, header: http.Header{}, out: make([]byte, 0, readBufferSize)}
}

// serveOne reads and answers one request; false ends the connection.
func (c *conn) serveOne() bool {
	if !c.waitRequest() {
		return false
	}
	r, ok := c.readRequest()
	return ok && c.respond(r)
}

// readRequest reads and parses the head of the request whose first byte
// is buffered; false: refused or unreadable, the connection ends.
func (c *conn) readRequest() (*http.Request, bool) {
	s := c.srv
	t0 := time.Now()
	c.dl.readDue = after(t0, firstPositive(s.ReadHeaderTimeout, s.ReadTimeout))
	c.dl.writeDue = after(t0, s.WriteTimeout)
	var err error
	c.head, err = readHead(c.br, c.head[:0], s.headLimit())
	if err != nil {
		c.refuse(err)
		return nil, false
	}
	r := c.req
	r.URL, r.Header = &c.url, c.reqHeader
	r.Form, r.PostForm, r.MultipartForm, r.Pattern = nil, nil, nil, ""
	if c.listed, err = parseHead(r, c.head, &c.vals, &c.fields, s.ListFields); err != nil {
		c.refuse(err)
		return nil, false
	}
	c.dl.readDue = after(t0, s.ReadTimeout)
	c.body.reset(r)
	r.Body = &c.body
	if r.ContentLength == 0 {
		r.Body = http.NoBody
	}
	return r, true
}

// respond runs the handler on r and completes its answer; false ends the
// connection.
func (c *conn) respond(r *http.Request) bool {
	w := &c.resp
	w.reset(r)
	if expect, n := c.expect(r); n > 0 {
		if strings.EqualFold(expect, "100-continue") && n == 1 && r.ProtoMinor == 1 {
			c.body.continue_ = r.ContentLength != 0
		} else {
			w.closeAfter = true
			w.header.Set("Connection", "close")
			w.WriteHeader(http.StatusExpectationFailed)
			w.finish()
			return false
		}
	}
	if !c.runHandler(w, r) {
		return false
	}
	return !w.closeAfter
}

// expect is the request's first Expect value and how many it has.
func (c *conn) expect(r *http.Request) (string, int) {
	if !c.listed {
		if vv := r.Header["Expect"]; len(vv) > 0 {
			return vv[0], len(vv)
		}
		return "", 0
	}
	for i := range c.fields {
		if c.fields[i].Name == "Expect" {
			return c.fields[i].Value, 1 // a listed name is never repeated
		}
	}
	return "", 0
}

// waitRequest waits, idle, for the first byte of the next request.
func (c *conn) waitRequest() bool {
	if c.br.Buffered() == 0 {
		if !c.goIdle() {
			return false
		}
		if _, err := c.br.Peek(1); err != nil {
			return false
		}
	}
	return c.goActive()
}

// goIdle marks the connection idle between requests (Shutdown may then
// close it) under the idle deadline; false: it was closed.
func (c *conn) goIdle() bool {
	if !c.state.CompareAndSwap(stateActive, stateIdle) && c.state.Load() != stateIdle {
		return false
	}
	if d := firstPositive(c.srv.IdleTimeout, c.srv.ReadTimeout); d > 0 {
		c.dl.readDue = time.Now().Add(d)
	} else {
		c.dl.readDue = time.Time{}
	}
	return true
}

// goActive marks the connection busy with a request; false: Shutdown
// closed it while idle.
func (c *conn) goActive() bool {
	return c.state.CompareAndSwap(stateIdle, stateActive) || c.state.Load() == stateActive
}

// runHandler calls the handler and completes its answer. A panic aborts
// the connection, as in net/http.
func (c *conn) runHandler(w *response, r *http.Request) (ok bool) {
	defer func() {
		if p := recover(); p != nil {
			ok = false
			if p != http.ErrAbortHandler {
				slog.Error("h1: panic serving request", "remote", r.RemoteAddr, "panic", p)
			}
		}
	}()
	c.srv.Handler.ServeHTTP(w, r)
	if w.hijacked {
		return false
	}
	return w.finish() == nil
}

// refuse answers a request that could not be read, as net/http does.
func (c *conn) refuse(err error) {
	var ne net.Error
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, os.ErrDeadlineExceeded) ||
		errors.As(err, &ne) && ne.Timeout() || errors.Is(err, net.ErrClosed) {
		return
	}
	msg := "400 Bad Request"
	var se *statusError
	switch {
	case err == errHeaderTooLarge:
		msg = "431 Request Header Fields Too Large"
	case strings.HasPrefix(err.Error(), "unsupported transfer encoding"):
		_, _ = c.write([]byte("HTTP/1.1 501 Not Implemented\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\nUnsupported transfer encoding"))
		c.closeWriteAndWait()
		return
	case errors.As(err, &se):
		msg = strconv.Itoa(se.code) + " " + http.StatusText(se.code) + ": " + se.text
	}
	_ = c.nc.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = io.WriteString(c.nc, "HTTP/1.1 "+msg+"\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"+msg)
	c.closeWriteAndWait()
}

// closeWriteAndWait half-closes and waits a little before the close, so
// unread request bytes do not turn the close into a reset that could
// destroy the answer in flight (net/http's rstAvoidanceDelay).
func (c *conn) closeWriteAndWait() {
	if cw, ok := c.nc.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
	}
	time.Sleep(500 * time.Millisecond)
}

// writeContinue sends the interim answer the client waits for before its
// body, unless the final answer has begun.
func (c *conn) writeContinue() error {
	if c.resp.wroteHeader {
		return nil
	}
	_, err := c.write([]byte("HTTP/1.1 100 Continue\r\n\r\n"))
	return err
}
