package h1

import (
	"bufio"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/opencollab/backend/gateway/internal/httpfield"
)

const (
	// bufferBeforeChunking: an answer of unknown length up to this size is
	// sent with a Content-Length, as net/http does; a longer one is chunked.
	bufferBeforeChunking = 2048
	// maxBuffered: a sized answer is buffered up to this much, so head and
	// body usually leave in one write.
	maxBuffered = 32 << 10
)

// response is the http.ResponseWriter of one request; reused per connection.
type response struct {
	c      *conn
	req    *http.Request
	header http.Header
	out    []byte // head (once built) and buffered body

	status        int
	wroteHeader   bool
	headSent      bool // the head is in out or on the wire
	chunked       bool
	bodyAllowed   bool
	declared      int64 // Content-Length the handler set; -1 none
	written       int64
	closeAfter    bool
	hijacked      bool
	sizedBuffered bool // out holds a head with Content-Length and body

	// raw holds the fields of a WriteHeaderRaw head (its buffer reused per
	// connection); rawContentType and rawDate say whether they include
	// those fields.
	raw                     []byte
	rawContentType, rawDate bool
}

func (w *response) reset(r *http.Request) {
	clear(w.header)
	*w = response{c: w.c, req: r, header: w.header, out: w.out[:0], raw: w.raw[:0], declared: -1, closeAfter: r.Close}
}

func (w *response) Header() http.Header { return w.header }

func (w *response) WriteHeader(code int) {
	if w.wroteHeader || w.hijacked {
		return
	}
	if code < 100 || code > 999 {
		panic("invalid WriteHeader code " + strconv.Itoa(code))
	}
	if code >= 100 && code <= 199 && code != http.StatusSwitchingProtocols {
		w.out = appendStatus(w.out[:0], code, w.req.ProtoMinor == 0)
		w.out = httpfield.AppendValid(w.out, w.header)
		w.out = append(w.out, "\r\n"...)
		_, _ = w.c.write(w.out)
		w.out = w.out[:0]
		return
	}
	w.wroteHeader, w.status = true, code
	w.bodyAllowed = bodyAllowed(code)
	if cl := w.header["Content-Length"]; len(cl) == 1 {
		if n, err := strconv.ParseInt(cl[0], 10, 64); err == nil && n >= 0 {
			w.declared = n
		}
	}
}

func bodyAllowed(code int) bool {
	return code >= 200 && code != http.StatusNoContent && code != http.StatusNotModified
}

func (w *response) Write(p []byte) (int, error) {
	if w.hijacked {
		return 0, http.ErrHijacked
	}
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	if len(p) == 0 {
		return 0, nil
	}
	if !bodyAllowed(w.status) {
		return 0, http.ErrBodyNotAllowed
	}
	if w.declared >= 0 && w.written+int64(len(p)) > w.declared {
		return 0, http.ErrContentLength
	}
	if !w.headSent && (w.declared >= 0 || len(w.out)+len(p) > bufferBeforeChunking) {
		w.sendHead(false, p)
	}
	w.written += int64(len(p))
	if !w.headSent {
		w.out = append(w.out, p...) // sniffed and sized in finish
		return len(p), nil
	}
	if w.req.Method == http.MethodHead {
		return len(p), nil
	}
	if w.chunked {
		w.out = strconv.AppendInt(w.out, int64(len(p)), 16)
		w.out = append(w.out, "\r\n"...)
	}
	if len(w.out)+len(p) > maxBuffered {
		if err := w.flushOut(); err != nil {
			return 0, err
		}
		if !w.chunked && len(p) > maxBuffered {
			return w.c.write(p)
		}
	}
	w.out = append(w.out, p...)
	if w.chunked {
		w.out = append(w.out, "\r\n"...)
	}
	return len(p), nil
}

// sendHead puts the head in front of whatever body is buffered in out.
// done: the handler has returned, so a buffered body's length is known;
// next: the write that overflowed the buffer (for sniffing).
func (w *response) sendHead(done bool, next []byte) {
	body, h := w.out, w.header
	isHead := w.req.Method == http.MethodHead
	var scratch [512]byte
	b := appendStatus(scratch[:0], w.status, w.req.ProtoMinor == 0)
	w.decideClose()
	switch {
	case w.declared >= 0 || !w.bodyAllowed:
	case done:
		if !isHead || len(body) > 0 {
			b = append(b, "Content-Length: "...)
			b = strconv.AppendInt(b, int64(len(body)), 10)
			b = append(b, "\r\n"...)
		}
	case isHead:
	case w.req.ProtoMinor == 0:
		w.closeAfter = true
	default:
		w.chunked = true
		b = append(b, "Transfer-Encoding: chunked\r\n"...)
	}
	if !w.hasField("Content-Type") && w.bodyAllowed && len(body)+len(next) > 0 {
		sniff := body
		if len(sniff) == 0 {
			sniff = next
		}
		b = httpfield.Append(b, "Content-Type", http.DetectContentType(sniff))
	}
	if !w.hasField("Date") {
		b = append(b, "Date: "...)
		b = append(b, httpDate()...)
		b = append(b, "\r\n"...)
	}
	switch {
	case w.closeAfter && w.req.ProtoMinor == 1 && !httpfield.HasToken(h["Connection"], "close"):
		b = append(b, "Connection: close\r\n"...)
	case !w.closeAfter && w.req.ProtoMinor == 0 && !httpfield.HasToken(h["Connection"], "keep-alive"):
		b = append(b, "Connection: keep-alive\r\n"...)
	}
	b = httpfield.AppendValid(b, h)
	b = append(b, w.raw...)
	b = append(b, "\r\n"...)
	if isHead {
		body = body[:0]
	}
	if w.chunked && len(body) > 0 {
		b = strconv.AppendInt(b, int64(len(body)), 16)
		b = append(b, "\r\n"...)
	}
	w.headSent = true
	n := len(b)
	if need := n + len(body); cap(w.out) < need {
		grown := make([]byte, need, 2*need)
		copy(grown[n:], body)
		w.out = grown
	} else {
		w.out = w.out[:need]
		copy(w.out[n:], body)
	}
	copy(w.out, b)
	if w.chunked && len(body) > 0 {
		w.out = append(w.out, "\r\n"...)
	}
}

// decideClose marks the connection to close after this answer: the
// handler asked for it, the server shuts down, or the request body could
// not be consumed.
func (w *response) decideClose() {
	if httpfield.HasToken(w.header["Connection"], "close") || w.c.srv.shutdown.Load() {
		w.closeAfter = true
	}
	if w.closeAfter {
		return
	}
	b := &w.c.body
	if w.req.Body == http.NoBody || b.done {
		return
	}
	if b.continue_ {
		// The client waits for a 100 Continue it will not get now: it
		// sends no body, and the connection stays usable.
		return
	}
	tooBig := b.closed || (!b.chunked && b.remaining >= maxPostHandlerRead)
	if tooBig || !b.drain(maxPostHandlerRead) {
		w.closeAfter = true
	}
}

func (w *response) flushOut() error {
	if len(w.out) == 0 {
		return nil
	}
	_, err := w.c.write(w.out)
	w.out = w.out[:0]
	if err != nil {
		w.closeAfter = true
	}
	return err
}

// Flush sends the head and whatever is buffered.
func (w *response) Flush() { _ = w.FlushError() }

func (w *response) FlushError() error {
	if w.hijacked {
		return http.ErrHijacked
	}
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	if !w.headSent {
		w.sendHead(false, nil)
	}
	return w.flushOut()
}

// finish completes the answer after the handler returned.
func (w *response) finish() error {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	if !w.headSent {
		w.sendHead(true, nil)
	}
	if w.chunked {
		w.out = append(w.out, "0\r\n\r\n"...)
	}
	if w.declared >= 0 && w.written != w.declared && w.bodyAllowed {
		w.closeAfter = true
	}
	return w.flushOut()
}

// Hijack hands the connection to the handler (WebSocket tunnels).
func (w *response) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if w.hijacked {
		return nil, nil, http.ErrHijacked
	}
	if w.c.rawFD != noRawFD {
		return nil, nil, errHijackInline
	}
	if w.wroteHeader {
		if err := w.FlushError(); err != nil {
			return nil, nil, err
		}
	}
	w.hijacked = true
	c := w.c
	c.state.Store(stateHijacked)
	c.srv.track(c, false)
	_ = c.nc.SetDeadline(time.Time{})
	c.dl = deadlines{slack: c.dl.slack} // no deadline for the handler's reads through br
	return c.nc, bufio.NewReadWriter(c.br, bufio.NewWriter(c.nc)), nil
}

func (w *response) SetReadDeadline(t time.Time) error  { return w.c.setReadDeadline(t) }
func (w *response) SetWriteDeadline(t time.Time) error { return w.c.setWriteDeadline(t) }
