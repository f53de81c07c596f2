package realtime

import (
	"fmt"
	"io"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/opencollab/backend/svc-content/internal/realtime/yproto"
	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// TestBurstOfReadableSocketsStartsNoReadWorkers: when many sockets turn
// readable together (a saturated replica's clients answer a group
// commit's acknowledgements at once), the busy workers take them from the
// backlog instead of a goroutine being started for each socket that no
// parked worker took (0.6-0.9 per update before, here and in
// realtimebench's saturation).
func TestBurstOfReadableSocketsStartsNoReadWorkers(t *testing.T) {
	const clients, rounds = 96, 10
	hub := NewHub(Options{Store: discardStore{}, Access: fakeAccess{}})
	srv := serveHub(t, hub)
	senders := make([]net.Conn, clients)
	rooms := make([]*room, clients)
	for i := range senders {
		senders[i] = bareClient(t, srv.wsBase, fmt.Sprintf("org1/burst/ed%d", i))
		go func(c net.Conn) { _, _ = io.Copy(io.Discard, c) }(senders[i])
		key := DocKey{"ws1", "org1", "burst", fmt.Sprintf("ed%d", i)}
		waitMembers(t, hub, key, 1)
		rooms[i] = hub.roomByKey(key)
	}
	frames := appendFrames(t, rounds+1)
	round := func(k int) {
		for _, s := range senders {
			if _, err := s.Write(frames[k]); err != nil {
				t.Fatal(err)
			}
		}
		deadline := time.Now().Add(10 * time.Second)
		for _, r := range rooms {
			for received(r) < uint64(k+1) {
				if time.Now().After(deadline) {
					t.Fatalf("round %d was not received", k)
				}
				runtime.Gosched()
			}
		}
	}
	round(0) // warms workers up
	workers := sharedPoller().workers
	started := workers.started.Load()
	for k := 1; k <= rounds; k++ {
		round(k)
	}
	perUpdate := float64(workers.started.Load()-started) / (clients * rounds)
	t.Logf("%.3f read workers started per update, %d sockets readable together", perUpdate, clients)
	if perUpdate > 0.1 {
		t.Fatalf("%.3f read workers started per update in bursts of %d, want at most 0.1", perUpdate, clients)
	}
}

// TestBlockedReadersHoldUpNoOtherSocket: when every busy read worker
// waits (senders held back by a store that takes nothing), a socket that
// turns readable is still read: the backlog gets workers of its own once
// no worker took from it for backlogStall.
func TestBlockedReadersHoldUpNoOtherSocket(t *testing.T) {
	store := newGatedStore()
	hub := NewHub(Options{Store: store, Access: fakeAccess{}})
	srv := serveHub(t, hub)
	t.Cleanup(store.release)
	go func() {
		for range store.started {
		}
	}()
	probeKey := DocKey{"ws1", "org1", "probe", "ed1"}
	reader := rawClient(t, srv.wsBase, "org1/probe/ed1", "viewer:sam", 0)
	probe := rawClient(t, srv.wsBase, "org1/probe/ed1", "editor:bob", 0)
	waitMembers(t, hub, probeKey, 2)
	got := relays(reader)
	blocked := int(sharedPoller().workers.busyMax) + 1
	for i := range blocked {
		holdBackSender(t, hub, srv.wsBase, fmt.Sprintf("held%d", i))
	}
	u := textUpdate(t, 7, "probe")
	if err := probe.WriteMessage(websocket.BinaryMessage, ywsSyncMessage(yproto.SyncUpdate, u)); err != nil {
		t.Fatal(err)
	}
	select {
	case <-got:
	case <-time.After(5 * time.Second):
		t.Fatalf("an update was not read while %d senders were held back by the store", blocked)
	}
}

// holdBackSender connects an editor to its own document and sends it more
// than maxUnstoredBytes, which a held store never takes: the read worker
// handling it waits in waitStoredBelow until the store is released.
func holdBackSender(t *testing.T, hub *Hub, wsBase, doc string) {
	t.Helper()
	key := DocKey{"ws1", "org1", doc, "ed1"}
	w := rawClient(t, wsBase, "org1/"+doc+"/ed1", "editor:ada", 0)
	waitMembers(t, hub, key, 1)
	go func() { // drain what the server sends
		for {
			if _, _, err := w.ReadMessage(); err != nil {
				return
			}
		}
	}()
	d := yjs.NewDoc(9)
	for range 3 {
		u, err := d.Transact(func(tx *yjs.Tx) error {
			return d.Text("content").Insert(tx, 0, strings.Repeat("x", 400<<10), nil)
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteMessage(websocket.BinaryMessage, ywsSyncMessage(yproto.SyncUpdate, u)); err != nil {
			t.Fatal(err)
		}
	}
	r := hub.roomByKey(key)
	waitCount(t, "bytes unstored past the bound in "+doc, 1, func() int {
		if unstoredBytes(r) > maxUnstoredBytes {
			return 1
		}
		return 0
	})
}
