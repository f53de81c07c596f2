package realtime

import (
	"context"
	"net/http"

	"github.com/opencollab/backend/svc-content/internal/realtime/yproto"
	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// ServeYWebsocket serves the y-websocket protocol for one document (GET
// /v2/crdt/sync/{org}/{doc}/{editor}?token=JWT), as y-websocket's own
// server does: the server opens with sync step 1 and the awareness it
// knows, answers step 1 with step 2, takes updates, awareness and
// awareness queries. The token is decided before any content is sent;
// a refusal closes with 4401 (bad or expired token) or 4403 (no access).
func (h *Hub) ServeYWebsocket(w http.ResponseWriter, req *http.Request, org, doc, editor string) {
	c := h.accept(w, req)
	if c == nil {
		return
	}
	token := req.URL.Query().Get("token")
	// The connection lives on a goroutine of its own and the HTTP handler
	// returns: the request, its middleware state and its stack are freed
	// instead of being held for the connection's whole life.
	go h.serveYWS(c, token, org, doc, editor)
}

func (h *Hub) serveYWS(c *conn, token, org, doc, editor string) {
	ctx := h.ctx
	m, release, code, reason := h.open(ctx, c, token, org, doc, editor, ywsFramer{})
	if m == nil {
		c.closeNow(code, reason)
		c.drain(func() { h.untrack(c) })
		return
	}
	m.onEnd = func(_ *member, code int, reason string) {
		if code == CloseNormal {
			c.close(code, reason)
			return
		}
		c.closeNow(code, reason)
	}
	if err := m.room.join(ctx, m, true); err != nil {
		h.sessions.remove(m)
		c.closeNow(CloseInternal, "the document could not be loaded; reconnect")
		c.drain(func() { release(); h.untrack(c) })
		return
	}
	c.serveReads(func(msg []byte) {
		if err := h.handleYWS(m, msg); err != nil {
			m.end(CloseBadRequest, err.Error())
		}
	}, func() {
		h.sessions.remove(m)
		m.end(CloseNormal, "")
		c.finished()
		release()
		h.untrack(c)
	})
}

// open decides the token and counts the session; on refusal it returns no
// member and the close code and reason to send. The decision (an HTTP call
// to identity, a Redis script) runs on a goroutine of its own: the deep
// stack it needs then goes away with it instead of staying with the
// connection's goroutine while it waits for the room.
func (h *Hub) open(ctx context.Context, c *conn, token, org, doc, editor string, f framer) (m *member, release func(), code int, reason string) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		m, release, code, reason = h.decide(ctx, c, token, org, doc, editor, f)
	}()
	<-done
	return m, release, code, reason
}

func (h *Hub) decide(ctx context.Context, c *conn, token, org, doc, editor string, f framer) (m *member, release func(), code int, reason string) {
	if token == "" {
		return nil, nil, CloseUnauthorized, "a token is required (the user token from /v2/auth/generate_token)"
	}
	actx, cancel := context.WithTimeout(ctx, accessTimeout)
	g, err := h.access.Check(actx, token, org, doc)
	cancel()
	if d, ok := asDenial(err); ok {
		if d.Unauthenticated {
			return nil, nil, CloseUnauthorized, d.Reason
		}
		return nil, nil, CloseForbidden, d.Reason
	} else if err != nil {
		h.logger.Warn("realtime: access decision failed", "error", err)
		return nil, nil, CloseInternal, "access could not be decided; retry"
	}
	if code, reason := h.checkOrigin(ctx, g.Workspace, c.origin); code != 0 {
		return nil, nil, code, reason
	}
	key := DocKey{Workspace: g.Workspace, Org: org, Doc: doc, Editor: editor}
	release, err = h.acquire(ctx, key)
	if err != nil {
		if l, ok := err.(*LimitError); ok {
			return nil, nil, CloseTooManySessions, l.Reason
		}
		return nil, nil, CloseInternal, "sessions could not be counted; retry"
	}
	m = &member{c: c, framer: f, key: key, grant: g, author: Author{UserID: g.UserID, SessionID: newSessionID()}}
	m.room = h.room(key)
	h.sessions.add(m, token)
	return m, release, 0, ""
}

// handleYWS runs the messages of one frame (clients send one a frame, but
// the protocol allows several).
func (h *Hub) handleYWS(m *member, msg []byte) error {
	d := lib0.NewDecoder(msg)
	for d.HasContent() {
		switch typ := d.ReadVarUint(); typ {
		case ywsSync:
			s, err := yproto.ReadSync(d)
			if err != nil {
				return err
			}
			m.room.handleSync(m, s)
		case ywsAwareness:
			update := d.ReadVarBytes()
			if d.Err() != nil {
				return d.Err()
			}
			if err := m.room.handleAwareness(m, update); err != nil {
				return err
			}
		case ywsQueryAwareness:
			m.room.queryAwareness(m)
		default:
			// Auth messages and unknown types carry nothing for a server.
			return d.Err()
		}
	}
	return d.Err()
}
