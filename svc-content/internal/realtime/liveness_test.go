package realtime

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// A client that answers no ping (it never reads, so its WebSocket library
// never sends a pong) is dropped after a ping interval or two; a client
// that reads, and so answers, stays.
func TestPingTimeoutDropsDeadClient(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil, nil, Settings{PingInterval: time.Second})
	key := DocKey{"ws1", "org1", "ping", "ed1"}
	dead := rawClient(t, srv.wsBase, "org1/ping/ed1", "editor:ada", 0)
	_ = dead // joined, never reads, never answers
	alive := rawClient(t, srv.wsBase, "org1/ping/ed1", "editor:bob", 0)
	go func() {
		for {
			if _, _, err := alive.ReadMessage(); err != nil {
				return
			}
		}
	}()
	waitMembers(t, srv.hub, key, 2)
	waitMembers(t, srv.hub, key, 1)
	time.Sleep(3 * time.Second) // three more intervals
	if n := members(srv.hub, key); n != 1 {
		t.Fatalf("%d members after the dead client was dropped, want the live one only", n)
	}
}

// A message over MaxMessageBytes closes the connection with 1009.
func TestOversizeMessageCloses1009(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil, nil, Settings{MaxMessageBytes: 4096})
	ws := rawClient(t, srv.wsBase, "org1/big/ed1", "editor:ada", 0)
	if err := ws.WriteMessage(websocket.BinaryMessage, make([]byte, 8192)); err != nil {
		t.Fatal(err)
	}
	if code := closeCode(t, ws); code != CloseTooBig {
		t.Fatalf("close code %d, want %d", code, CloseTooBig)
	}
}

// A Hocuspocus socket that authenticates no document is closed with 4401
// after AuthTimeout; one that authenticated stays past it.
func TestHocuspocusUnauthenticatedSocketIsClosed(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil, nil, Settings{AuthTimeout: 300 * time.Millisecond})
	dial := func() *websocket.Conn {
		ws, _, err := websocket.DefaultDialer.Dial(srv.wsBase+"/v2/crdt/hocuspocus", nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = ws.Close() })
		return ws
	}
	silent := dial()
	authed := dial()
	name := "org1/auth/ed1"
	auth := binary.AppendUvarint(appendHPString(nil, name), hpAuth)
	auth = binary.AppendUvarint(auth, 0)
	auth = appendHPString(appendHPString(auth, "editor:ada"), "4.8.0")
	if err := authed.WriteMessage(websocket.BinaryMessage, auth); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	code, reason := closeCodeReason(t, silent)
	if code != CloseUnauthorized || !strings.Contains(reason, "authenticated") {
		t.Fatalf("silent socket closed with %d %q, want %d", code, reason, CloseUnauthorized)
	}
	if waited := time.Since(start); waited > 5*time.Second {
		t.Fatalf("closed after %s, want about the 300 ms deadline", waited)
	}
	_ = authed.SetReadDeadline(time.Now().Add(time.Second))
	for {
		if _, _, err := authed.ReadMessage(); err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				t.Fatalf("the authenticated socket was closed too: %v", err)
			}
			break // the read deadline: still open
		}
	}
}

func appendHPString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func closeCode(t *testing.T, ws *websocket.Conn) int {
	code, _ := closeCodeReason(t, ws)
	return code
}

// closeCodeReason reads until the server's close frame.
func closeCodeReason(t *testing.T, ws *websocket.Conn) (int, string) {
	t.Helper()
	_ = ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		_, _, err := ws.ReadMessage()
		if err == nil {
			continue
		}
		var ce *websocket.CloseError
		if errors.As(err, &ce) {
			return ce.Code, ce.Text
		}
		t.Fatalf("connection ended without a close frame: %v", err)
	}
}
