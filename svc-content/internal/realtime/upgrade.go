package realtime

import (
	"crypto/rand"
	"net/http"
	"sync"

	"github.com/gorilla/websocket"
)

// upgrader gives each connection a small read buffer of its own (the
// HTTP server's 4 KiB one is dropped: sync messages are small, and a
// larger frame is read past the buffer) and lends write buffers from a
// pool only while a write runs, so an idle connection holds no write
// buffer. Every origin gets the upgrade: the workspace whose allowed
// domains apply is known only once the token is decided, and the Origin
// is checked then (checkOrigin).
var upgrader = websocket.Upgrader{
	ReadBufferSize:  readBufferSize,
	WriteBufferPool: &sync.Pool{},
	CheckOrigin:     func(*http.Request) bool { return true },
}

const readBufferSize = 512

// accept upgrades the request and registers the connection; nil when the
// upgrade failed (the upgrader answered) or the hub is shutting down.
func (h *Hub) accept(w http.ResponseWriter, r *http.Request) *conn {
	ws, err := upgrader.Upgrade(batchHijacker{w}, r, nil)
	if err != nil {
		return nil
	}
	ws.SetReadLimit(h.settings.MaxMessageBytes)
	c := newConn(ws, &h.settings)
	c.origin = r.Header.Get("Origin")
	if !h.track(c) {
		c.close(CloseGoingAway, "server shutting down; reconnect")
		c.drain()
		return nil
	}
	return c
}

// drain reads until the connection ends (after a close frame was sent,
// the client's answer or the grace deadline ends it), then cleans up.
func (c *conn) drain() {
	for {
		if _, err := c.read(); err != nil {
			break
		}
	}
	c.finished()
}

// newSessionID names one editing session (the webhook's sessionId).
func newSessionID() string { return rand.Text()[:20] }
