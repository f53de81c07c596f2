package gateway

import (
	"context"
	"net/http"
	"sync/atomic"
	"unsafe"

	"github.com/opencollab/backend/gateway/internal/h1"
	"github.com/opencollab/backend/gateway/internal/nbio"
)

// An exchange whose answer an answer loop relays (answerloop.go).

// Exchange states, between the handler sending the request and the loop.
const (
	exSending int32 = iota // the handler is writing the request
	exWaiting              // sent: the answer is the loop's
	exArrived              // the loop saw input while it was sent: the handler relays it
)

// laterWriter is h1's response as a completer uses it.
type laterWriter interface {
	AnswerLater() bool
	Finish(h1.AfterAnswer)
	Abandon(h1.AfterAnswer)
}

// laterExchange is one exchange handed to a loop; part of the request's
// call, so it costs no allocation.
type laterExchange struct {
	state atomic.Int32
	p     *serviceProxy
	ctx   context.Context
	u     *upConn
	w     http.ResponseWriter // the gateway's recorder
	lw    laterWriter
	r     *http.Request
	head  []byte  // the request, for a retry; its spare capacity takes the answer's fields
	bp    *[]byte // head's pooled buffer
	hop   *hopState
	loop  *answerLoop // the loop relaying it
}

// laterWriterOf is the h1 response under the recorder, if any.
func laterWriterOf(w http.ResponseWriter) laterWriter {
	rec, ok := w.(*statusRecorder)
	if !ok {
		return nil
	}
	lw, _ := rec.ResponseWriter.(laterWriter)
	return lw
}

// start sends head on u and hands the answer to u's loop. It reports
// whether it did (the handler must then return at once; bp is the
// exchange's) and else how much of head it sent.
func (ex *laterExchange) start(ctx context.Context, p *serviceProxy, u *upConn, w http.ResponseWriter, r *http.Request, head []byte, bp *[]byte, hop *hopState) (bool, int) {
	lw := laterWriterOf(w)
	if lw == nil || hop.after == nil || ctx.Done() != nil || !p.watched(u) {
		return false, 0
	}
	ex.p, ex.ctx, ex.u, ex.w, ex.lw, ex.r, ex.head, ex.bp, ex.hop = p, ctx, u, w, lw, r, head, bp, hop
	ex.state.Store(exSending)
	u.pending.Store(ex) // before the write: the answer's event finds it
	n, err := nbio.Write(u.src.fd, head)
	if err != nil || n < len(head) || !lw.AnswerLater() {
		u.pending.Store(nil)
		return false, n
	}
	if !ex.state.CompareAndSwap(exSending, exWaiting) {
		// The answer (or a close) came before the hand-over.
		u.pending.Store(nil)
		ex.relayBlocking()
	}
	return true, n
}

// watched reports whether u is on an answer loop, adding it on first use
// (a connection that becomes a realtime tunnel never is).
func (p *serviceProxy) watched(u *upConn) bool {
	if p.loops == nil || p.loops.off.Load() {
		return false // none, or stopped
	}
	if u.loop != nil {
		return true
	}
	if u.src.fd < 0 || u.unwatchable {
		return false
	}
	l := p.loops.pick()
	if l == nil || !l.watch(u) {
		u.unwatchable = true
		return false
	}
	return true
}

// answerReady is the loop's call for an event on u.
func (u *upConn) answerReady() {
	ex := u.pending.Load()
	if ex == nil || ex.state.CompareAndSwap(exSending, exArrived) || ex.state.Load() != exWaiting {
		return
	}
	u.src.now = true
	a, headLen, bodyLen, st := ex.peekAnswer()
	u.src.now = false
	switch st {
	case answerIncomplete:
		return // the rest raises another event
	case answerOther:
		u.pending.Store(nil)
		go ex.relayBlocking()
		return
	}
	u.pending.Store(nil)
	ex.loop = u.loop // u may be another's once released
	ex.relayWhole(&a, headLen, bodyLen)
}

type answerState uint8

const (
	answerWhole      answerState = iota // a simple answer, all buffered
	answerIncomplete                    // more is to come
	answerOther                         // for the blocking path
)

// peekAnswer reads what has come, without waiting, and looks at it
// without consuming any: a whole, sized, final answer that fits the read
// buffer is the loop's to relay; anything else is the blocking path's.
func (ex *laterExchange) peekAnswer() (a rawAnswer, headLen, bodyLen int, st answerState) {
	br := ex.u.br
	for need := 0; ; {
		buf, _ := br.Peek(br.Buffered())
		if headLen == 0 {
			if headLen = headLength(buf); headLen > 0 {
				if bodyLen, st = ex.parseHead(&a, buf[:headLen]); st != answerWhole {
					return a, 0, 0, st
				}
				need = headLen + bodyLen
			}
		}
		if headLen > 0 && len(buf) >= need {
			return a, headLen, bodyLen, answerWhole
		}
		if len(buf) == br.Size() || need > br.Size() {
			return a, 0, 0, answerOther
		}
		if _, err := br.Peek(len(buf) + 1); err != nil {
			if err == errWouldBlock {
				return a, 0, 0, answerIncomplete
			}
			return a, 0, 0, answerOther // the blocking path meets it again
		}
	}
}

// parseHead parses a whole head in place; the answer is the loop's when it
// is final, sized and on the raw path.
func (ex *laterExchange) parseHead(a *rawAnswer, head []byte) (int, answerState) {
	var ok bool
	var err error
	*a, _, ok, err = parseRawHead(unsafe.String(&head[0], len(head)), ex.head)
	switch {
	case err != nil, !ok, a.status < 200, a.status == http.StatusSwitchingProtocols:
		return 0, answerOther
	case !bodyAllowed(ex.r.Method, a.status):
		return 0, answerWhole
	case a.chunked || a.contentLength < 0:
		return 0, answerOther
	}
	return int(a.contentLength), answerWhole
}

// relayWhole writes a buffered answer to the client and ends the request.
func (ex *laterExchange) relayWhole(a *rawAnswer, headLen, bodyLen int) {
	u, br := ex.u, ex.u.br
	_, _ = br.Discard(headLen)
	writeAnswerHead(ex.w, a, true, ex.hop.requestID)
	err := copySized(ex.w, br, int64(bodyLen))
	ex.p.release(u, err == nil && a.keepAlive, ex.hop)
	putBuf(ex.bp)
	ex.loop.relayed.Add(1)
	ex.lw.Finish(ex.hop.after)
}

// relayBlocking finishes the exchange the ordinary way, waiting as needed:
// any answer, a retry on a new connection, or the envelope of a failure.
func (ex *laterExchange) relayBlocking() {
	defer func() {
		if v := recover(); v != nil {
			if v != http.ErrAbortHandler {
				ex.p.logger.ErrorContext(ex.ctx, "panic relaying an answer", "service", ex.p.name, "panic", v)
			}
			putBuf(ex.bp)
			ex.lw.Abandon(ex.hop.after)
		}
	}()
	p := ex.p
	retry, err := p.relay(ex.ctx, ex.u, ex.w, ex.r, ex.head, ex.hop)
	if err != nil {
		if retry {
			p.attempts(ex.ctx, nil, 0, 1, ex.w, ex.r, ex.head, true, ex.hop)
		} else {
			p.fail(ex.ctx, ex.w, ex.r, err)
		}
	}
	putBuf(ex.bp)
	ex.lw.Finish(ex.hop.after)
}
