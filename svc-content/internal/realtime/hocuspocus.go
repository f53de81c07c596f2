package realtime

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/opencollab/backend/svc-content/internal/realtime/yproto"
)

// Bounds of what a Hocuspocus socket may hold before its documents are
// authenticated (Hocuspocus's own defaults).
const (
	hpMaxPendingDocs  = 100
	hpMaxQueuedMsgs   = 1000
	hpMaxQueuedBytes  = 5 << 20
	hpMaxDocsInSocket = 1000
)

// hpSocket is one Hocuspocus connection with the documents multiplexed on
// it, each authenticated by its own token.
type hpSocket struct {
	hub *Hub
	c   *conn
	ctx context.Context

	mu sync.Mutex
	// docs are the socket's documents: a slice, not a map by address, as a
	// socket nearly always carries one (a map cost some 200 bytes more per
	// connection) and at most hpMaxDocsInSocket.
	docs          []*hpDoc
	queuedMsgs    int
	queuedBytes   int
	authenticated bool
	// authTimer closes the socket if no document is authenticated in time;
	// dropped once one is.
	authTimer *time.Timer
}

// hpDoc is one document address on the socket: queued messages until its
// token is decided, then a room member.
type hpDoc struct {
	addr    string
	queue   [][]byte
	m       *member
	release func()
}

// ServeHocuspocus serves the Hocuspocus 4 protocol (GET
// /v2/crdt/hocuspocus), as @hocuspocus/server does for stock
// @hocuspocus/provider: documents named {org}/{doc}/{editor}, each opened
// by an Auth message with its token and answered Authenticated (scope
// read-write or readonly) or PermissionDenied with a reason, before any of
// its content is sent; sync, sync replies, awareness, awareness queries,
// stateless messages (relayed to the document's other sessions), token
// sync, close; and SyncStatus acknowledgements sent once an update is
// stored.
func (h *Hub) ServeHocuspocus(w http.ResponseWriter, req *http.Request) {
	c := h.accept(w, req)
	if c == nil {
		return
	}
	h.serveHP(c) // it only registers the socket: the handler returns at once
}

func (h *Hub) serveHP(c *conn) {
	s := &hpSocket{hub: h, c: c, ctx: h.ctx}
	s.mu.Lock()
	s.authTimer = time.AfterFunc(h.settings.AuthTimeout, s.expireUnauthenticated)
	s.mu.Unlock()
	c.serveReads(func(msg []byte) {
		if code, reason := s.receive(msg); code != 0 {
			c.closeNow(code, reason)
		}
	}, func() {
		s.mu.Lock()
		s.stopAuthTimerLocked()
		s.mu.Unlock()
		s.endAll()
		c.finished()
		h.untrack(c)
	})
}

// receive routes one message; a non-zero code closes the socket.
func (s *hpSocket) receive(msg []byte) (int, string) {
	if len(msg) == 1 && (msg[0] == hpPong || msg[0] == hpPing) {
		return 0, "" // connection-level liveness, no document
	}
	hm, err := readHPMessage(msg)
	if err != nil {
		return CloseBadRequest, "malformed Hocuspocus message"
	}
	d, code, reason := s.doc(hm.addr)
	if d == nil {
		return code, reason
	}
	if d.m != nil {
		return s.handle(d, hm)
	}
	if hm.typ == hpAuth {
		if token, ok, err := hm.readToken(); err != nil {
			return CloseBadRequest, "malformed authentication message"
		} else if ok {
			s.authenticate(d, token)
		}
		return 0, ""
	}
	return s.enqueue(d, msg)
}

// authenticate decides the document's token; on success the queued
// messages run.
func (s *hpSocket) authenticate(d *hpDoc, token string) {
	f := newHPFramer(d.addr)
	name, sessionID, _ := strings.Cut(d.addr, "\x00")
	org, doc, editor, err := ParseDocName(name)
	if err != nil {
		s.refuse(d, err.Error())
		return
	}
	m, release, _, reason := s.hub.open(s.ctx, s.c, token, org, doc, editor, f)
	if m == nil {
		s.refuse(d, reason)
		return
	}
	if sessionID != "" {
		m.author.SessionID = sessionID
	}
	m.onEnd = s.onEnd
	s.c.send(f.authenticated(m.role() != RoleEditor))
	if err := m.room.join(s.ctx, m, false); err != nil {
		s.hub.sessions.remove(m)
		release()
		s.c.closeNow(CloseInternal, "the document could not be loaded; reconnect")
		return
	}
	s.mu.Lock()
	d.m, d.release = m, release
	queue := d.queue
	d.queue = nil
	s.queuedMsgs -= len(queue)
	for _, q := range queue {
		s.queuedBytes -= len(q)
	}
	s.authenticated = true
	s.stopAuthTimerLocked()
	s.mu.Unlock()
	for _, q := range queue {
		if hm, err := readHPMessage(q); err == nil {
			if code, reason := s.handle(d, hm); code != 0 {
				s.c.closeNow(code, reason)
				return
			}
		}
	}
}

// refuse answers PermissionDenied and forgets the document, so the
// provider may try again with another token.
func (s *hpSocket) refuse(d *hpDoc, reason string) {
	s.c.send(hpFramer{addr: d.addr}.denied(reason))
	s.mu.Lock()
	if i := s.find(d.addr); i >= 0 && s.docs[i] == d {
		s.removeLocked(i)
	}
	s.queuedMsgs -= len(d.queue)
	for _, q := range d.queue {
		s.queuedBytes -= len(q)
	}
	s.mu.Unlock()
}

// handle runs a message of an authenticated document.
func (s *hpSocket) handle(d *hpDoc, hm hpMessage) (int, string) {
	m, r := d.m, d.m.room
	switch hm.typ {
	case hpSync, hpSyncReply:
		sync, err := yproto.ReadSync(&hm.body)
		if err != nil {
			return CloseBadRequest, err.Error()
		}
		if sync.Type == yproto.SyncStep1 && hm.typ == hpSync {
			m.send(m.framer.syncStep1(r.stateVector()))
		}
		r.handleSync(m, sync)
	case hpAwareness:
		update := hm.body.ReadVarBytes()
		if hm.body.Err() != nil {
			return CloseBadRequest, "malformed awareness message"
		}
		if err := r.handleAwareness(m, update); err != nil {
			return CloseBadRequest, err.Error()
		}
	case hpQueryAwareness:
		r.queryAwareness(m)
	case hpStateless:
		payload := hm.body.ReadVarString()
		if hm.body.Err() != nil {
			return CloseBadRequest, "malformed stateless message"
		}
		r.relayStateless(payload, m)
		s.hub.publishStateless(r, payload)
	case hpAuth:
		auth := hm                  // a copy: the closure must not take hm off the stack
		done := make(chan struct{}) // off the read goroutine's stack, as open
		go func() { defer close(done); s.tokenSync(m, auth) }()
		<-done
	case hpClose:
		m.end(CloseNormal, "provider_initiated")
	case hpBroadcastStateless:
		return CloseBadRequest, "BroadcastStateless is server-internal"
	}
	return 0, ""
}

// tokenSync decides a refreshed token: the session goes on with its grant,
// or ends.
func (s *hpSocket) tokenSync(m *member, hm hpMessage) {
	token, ok, err := hm.readToken()
	if err != nil || !ok {
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, accessTimeout)
	g, err := s.hub.access.Check(ctx, token, m.key.Org, m.key.Doc)
	cancel()
	if err == nil && (g.Workspace != m.key.Workspace || g.UserID != m.currentGrant().UserID) {
		err = &Denial{Unauthenticated: true, Reason: "a refreshed token must be of the same workspace and user"}
	}
	s.hub.sessions.apply(m, g, err)
	if err == nil {
		s.hub.sessions.setToken(m, token)
	}
}

// onEnd is how a document session ends on a Hocuspocus socket: a refused
// or revoked token gets PermissionDenied (the provider's
// authenticationFailed), a provider's close gets Close, and a failure of
// the server closes the whole socket.
func (s *hpSocket) onEnd(m *member, code int, reason string) {
	f := m.framer.(hpFramer)
	s.mu.Lock()
	var d *hpDoc
	if i := s.find(f.addr); i >= 0 {
		d = s.docs[i]
		if d.m == m {
			s.removeLocked(i)
		}
	}
	s.mu.Unlock()
	s.hub.sessions.remove(m)
	if d != nil && d.release != nil {
		d.release()
	}
	switch code {
	case CloseUnauthorized, CloseForbidden, CloseTooManySessions:
		s.c.send(f.denied(reason))
	case CloseNormal:
		s.c.send(f.closed(reason))
	default:
		s.c.closeNow(code, reason)
	}
}

// endAll ends every session of a socket that closed.
func (s *hpSocket) endAll() {
	s.mu.Lock()
	var members []*member
	for _, d := range s.docs {
		if d.m != nil {
			members = append(members, d.m)
		}
	}
	s.mu.Unlock()
	for _, m := range members {
		m.end(CloseNormal, "")
	}
}

// expireUnauthenticated closes a socket that authenticated nothing in time.
func (s *hpSocket) expireUnauthenticated() {
	s.mu.Lock()
	ok := s.authenticated
	s.mu.Unlock()
	if !ok {
		s.c.closeNow(CloseUnauthorized, "no document was authenticated in time")
	}
}
