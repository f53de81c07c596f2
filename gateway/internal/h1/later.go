package h1

import (
	"errors"
	"net/http"
	"os"
	"time"
)

// Answers completed later.
//
// A proxy's handler waits for the service's answer: one more park and wake
// of its goroutine per request, on top of the connection's own wait for the
// next request. With AnswerLater the handler may instead return at once and
// leave the answer to another goroutine (the gateway's answer loop, which
// wakes once for every answer that came in together). The connection's
// goroutine then goes back into its wait for input, but serves nothing
// until the answer is complete: the request, its response and the
// connection's deadlines are the completer's until Finish has run.
//
// Input that arrives meanwhile (a pipelined request, the client's close)
// is only noted; Finish then ends the wait by setting a past read deadline,
// and the wait begins again with a read. A connection to close after the
// answer is woken the same way. The wait tells a wake from a real idle
// timeout by the clock: a deadline that fires before the idle one was due
// is a wake.

// Later states.
const (
	laterNone    int32 = iota
	laterPending       // answered later, no input seen since
	laterMissed        // answered later, and the wait saw input meanwhile
)

// AfterAnswer is the completer's own end of a request, run once the answer
// is on its way to the client and before the connection serves its next
// request (which reuses the request and the response).
type AfterAnswer interface{ AfterAnswer() }

// AnswerLater lets the handler return before its answer is written: it
// reports whether the connection allows it. It does for a request served
// inside the wait for input (inline.go) whose body is read and after which
// no further input is buffered or known to wait in the socket. Once it reports true, the handler must
// return without writing, and Finish must be called exactly once, from any
// goroutine, after the answer is written to w.
func (w *response) AnswerLater() bool {
	c := w.c
	switch {
	case c.rawFD == noRawFD, c.sock == nil, w.wroteHeader, w.hijacked, c.handedOff:
		return false
	case c.br.Buffered() > 0:
		return false // pipelined input: served in order by the ordinary path
	case !c.drained:
		// The last read filled the buffer: more may wait in the socket,
		// which no new input event would announce.
		return false
	case w.req.Body != http.NoBody && !c.body.done:
		return false
	}
	c.handedOff = true
	c.laterMu.Lock() // unlocked by Finish
	c.closeLater = false
	c.later.Store(laterPending)
	return true
}

// Finish completes an answer handed to later: it sends what was written to
// w without waiting for room on the socket (the rest, if any, is sent by a
// goroutine of its own, under the write deadline), runs after, and gives
// the connection back to its goroutine.
func (w *response) Finish(after AfterAnswer) {
	c := w.c
	w.finishBuffered()
	out := w.out
	var err error
	if len(out) > 0 {
		var n int
		n, err = c.sock.TryWrite(out)
		if err == nil && n < len(out) {
			go w.finishSlow(out[n:], after)
			return
		}
	}
	w.out = w.out[:0]
	w.release(err, after)
}

// finishSlow sends the rest of an answer to a client slow to read it.
func (w *response) finishSlow(rest []byte, after AfterAnswer) {
	_, err := w.c.write(rest)
	w.out = w.out[:0]
	w.release(err, after)
}

// release ends the later answer: after runs, the connection goes idle (or
// is to close) and its goroutine gets it back.
func (w *response) release(err error, after AfterAnswer) {
	c := w.c
	if err != nil {
		w.closeAfter = true
	}
	after.AfterAnswer()
	if w.closeAfter || !c.goIdle() {
		c.closeLater = true
	} else {
		c.syncReadDeadline() // the idle deadline, for the wait
	}
	if c.closeLater || !c.later.CompareAndSwap(laterPending, laterNone) {
		// Wake the wait: it ends and looks again (readWoken).
		_ = c.nc.SetReadDeadline(aLongTimeAgo)
		c.later.Store(laterNone)
	}
	c.laterMu.Unlock()
}

// aLongTimeAgo is a deadline that ends a wait at once.
var aLongTimeAgo = time.Unix(1, 0)

// finishBuffered is finish without the write: the bytes to send are in
// out.
func (w *response) finishBuffered() {
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
}

// laterArrived is the wait's callback while an answer is pending: input is
// noted for Finish to wake the wait; false: nothing is pending any more.
func (c *conn) laterArrived() bool {
	if c.later.Load() == laterNone {
		return false
	}
	return c.later.CompareAndSwap(laterPending, laterMissed) || c.later.Load() == laterMissed
}

// readWoken decides, once the wait ended with err, whether the connection
// goes on: after an answer completed later, the wait may have been ended
// on purpose (release).
func (c *conn) readWoken(err error) bool {
	c.laterMu.Lock() // the pending answer, if any, is complete
	c.laterMu.Unlock()
	if c.closeLater || !errors.Is(err, os.ErrDeadlineExceeded) {
		return false
	}
	due := c.dl.readDue
	if !due.IsZero() && !time.Now().Before(due.Add(-c.dl.slack)) {
		return false // the idle timeout itself
	}
	// The socket holds the past deadline of the wake.
	c.dl.readSet = due
	_ = c.nc.SetReadDeadline(due)
	return true
}

// Abandon ends an answer handed to later that broke off: what is still
// buffered is dropped and the connection closes, so that a cut answer
// cannot pass for a whole one (a handler's panic(http.ErrAbortHandler)).
func (w *response) Abandon(after AfterAnswer) {
	w.out = w.out[:0]
	w.closeAfter = true
	w.release(nil, after)
}
