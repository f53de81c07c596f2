package realtime

import (
	"crypto/rand"
	"net/http"
	"sync"

	"github.com/gorilla/websocket"
)

// upgrader only answers the handshake: frames are read by the
// connection's own frame reader (see reading) and written by its
// batchConn, so the library's connection is dropped at once, and its
// buffers are the smallest it allows (the HTTP server's 4 KiB reader is
// not taken over, no write buffer is made). Every origin gets the
// upgrade: the workspace whose allowed domains apply is known only once
// the token is decided, and the Origin is checked then (checkOrigin).
var upgrader = websocket.Upgrader{
	ReadBufferSize:  unusedReadBuffer,
	WriteBufferPool: &sync.Pool{},
	CheckOrigin:     func(*http.Request) bool { return true },
}

// unusedReadBuffer asks for the library's minimum (a control frame's size).
const unusedReadBuffer = 1

// accept upgrades the request and registers the connection; nil when the
// upgrade failed (the upgrader answered) or the hub is shutting down.
func (h *Hub) accept(w http.ResponseWriter, r *http.Request) *conn {
	ws, err := upgrader.Upgrade(batchHijacker{w}, r, nil)
	if err != nil {
		return nil
	}
	// Only the socket is kept: frames are read and written here, and the
	// library's connection (its reader, its handlers) is garbage now.
	out, ok := ws.NetConn().(*batchConn)
	if !ok { // batchHijacker made it: cannot happen
		_ = ws.Close()
		return nil
	}
	c := newConn(out, &h.settings)
	c.origin = r.Header.Get("Origin")
	if !h.track(c) {
		c.close(CloseGoingAway, "server shutting down; reconnect")
		c.drain(func() {})
		return nil
	}
	return c
}

// drain reads until the connection ends (after a close frame was sent,
// the client's answer or the grace deadline ends it), then cleans up and
// runs then.
func (c *conn) drain(then func()) {
	c.serveReads(func([]byte) {}, func() {
		c.finished()
		then()
	})
}

// newSessionID names one editing session (the webhook's sessionId).
func newSessionID() string { return rand.Text()[:20] }
