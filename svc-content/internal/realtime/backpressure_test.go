package realtime

import (
	"context"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/opencollab/backend/svc-content/internal/realtime/yproto"
	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// rawClient is a y-websocket client made of a bare WebSocket, for tests
// that need a client which misbehaves (never reads).
func rawClient(t *testing.T, wsBase, room, token string, rcvBuf int) *websocket.Conn {
	t.Helper()
	d := websocket.Dialer{NetDial: func(network, addr string) (net.Conn, error) {
		nd := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
			if rcvBuf == 0 {
				return nil
			}
			var err error
			_ = c.Control(func(fd uintptr) { err = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, rcvBuf) })
			return err
		}}
		return nd.Dial(network, addr)
	}}
	ws, _, err := d.Dial(wsBase+"/v2/crdt/sync/"+room+"?token="+token, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ws.Close() })
	return ws
}

// A client that stops reading is disconnected once its send queue is over
// its bound; it is never buffered without bound, and the document's other
// clients go on.
//
// Not parallel: its control client must keep up with 20 updates of 32 KiB
// within the send-queue bound, and beside this package's other tests (TipTap
// in node, the replicas) on a loaded 2-core machine it fell behind and was
// disconnected too (3 of 6 runs of the whole suite on 2026-11-26, with -parallel
// 2 and 4).
func TestSlowClientIsDisconnected(t *testing.T) {
	srv := startServer(t, nil, nil, Settings{SendQueueBytes: 1 << 20, WriteTimeout: 2 * time.Second})
	slow := rawClient(t, srv.wsBase, "org1/slow/ed1", "viewer:sam", 4096)
	_ = slow // joined, never reads
	writer := rawClient(t, srv.wsBase, "org1/slow/ed1", "editor:ada", 0)
	go func() { // the writer drains what it is sent
		for {
			if _, _, err := writer.ReadMessage(); err != nil {
				return
			}
		}
	}()
	key := DocKey{"ws1", "org1", "slow", "ed1"}
	waitMembers(t, srv.hub, key, 2)
	doc := yjs.NewDoc(77)
	chunk := strings.Repeat("x", 32<<10)
	for i := 0; i < 400 && members(srv.hub, key) == 2; i++ {
		u, err := doc.Transact(func(tx *yjs.Tx) error { return doc.Text("content").Insert(tx, 0, chunk, nil) })
		if err != nil {
			t.Fatal(err)
		}
		if err := writer.WriteMessage(websocket.BinaryMessage, ywsSyncMessage(yproto.SyncUpdate, u)); err != nil {
			t.Fatal(err)
		}
	}
	waitMembers(t, srv.hub, key, 1)

	// The control: a client that reads stays through the same traffic
	// (once what the writer sent meanwhile is stored and relayed).
	for r := srv.hub.roomByKey(key); !r.idleCommit(); {
		time.Sleep(20 * time.Millisecond)
	}
	reader := rawClient(t, srv.wsBase, "org1/slow/ed1", "viewer:rea", 0)
	got := make(chan int, 1)
	go func() {
		n := 0
		for {
			if _, _, err := reader.ReadMessage(); err != nil {
				got <- n
				return
			}
			n++
		}
	}()
	waitMembers(t, srv.hub, key, 2)
	for range 20 {
		u, err := doc.Transact(func(tx *yjs.Tx) error { return doc.Text("content").Insert(tx, 0, chunk, nil) })
		if err != nil {
			t.Fatal(err)
		}
		if err := writer.WriteMessage(websocket.BinaryMessage, ywsSyncMessage(yproto.SyncUpdate, u)); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(time.Second)
	if n := members(srv.hub, key); n != 2 {
		t.Fatalf("a client that reads was disconnected too (%d members)", n)
	}
}

func members(h *Hub, key DocKey) int {
	r := h.roomByKey(key)
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.members)
}

func waitMembers(t testing.TB, h *Hub, key DocKey, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for members(h, key) != n {
		if ctx.Err() != nil {
			t.Fatalf("the document has %d members, want %d", members(h, key), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
