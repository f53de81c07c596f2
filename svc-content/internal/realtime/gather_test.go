package realtime

import (
	"fmt"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// editors connects one editor to each of n documents.
func editors(t *testing.T, hub *Hub, srv *testServer, n int) []*websocket.Conn {
	t.Helper()
	clients := make([]*websocket.Conn, n)
	for i := range clients {
		clients[i] = rawClient(t, srv.wsBase, fmt.Sprintf("org1/doc%d/ed1", i), "editor:ada", 0)
		waitMembers(t, hub, DocKey{"ws1", "org1", fmt.Sprintf("doc%d", i), "ed1"}, 1)
	}
	return clients
}

// On a quiet replica the updates that arrive within CommitGather of the
// first share its store write, however far apart they come: a store that
// writes at once would otherwise get one write per update.
func TestQuietCommitterGathersUpdatesIntoOneWrite(t *testing.T) {
	t.Parallel()
	store := newGatedStore()
	store.release()
	hub := NewHub(Options{Store: store, Access: fakeAccess{}, Settings: Settings{CommitGather: 2 * time.Second}})
	srv := serveHub(t, hub)
	const docs = 4
	for i, c := range editors(t, hub, srv, docs) {
		sendText(t, c, uint64(10+i), "hi")
		time.Sleep(50 * time.Millisecond) // each a write of its own without the gathering
	}
	if n := <-store.started; n != docs {
		t.Fatalf("the first write has %d updates, want all %d", n, docs)
	}
}

// A committer kept busy by a write does not wait again: the updates that
// gathered during the write go to the store as soon as it is done.
func TestBusyCommitterDoesNotGatherAgain(t *testing.T) {
	t.Parallel()
	const gather = 2 * time.Second
	store := newGatedStore()
	hub := NewHub(Options{Store: store, Access: fakeAccess{}, Settings: Settings{CommitGather: gather}})
	srv := serveHub(t, hub)
	t.Cleanup(store.release)
	clients := editors(t, hub, srv, 2)
	sendText(t, clients[0], 10, "hi")
	<-store.started // after gathering; the gate holds the write
	sendText(t, clients[1], 11, "hi")
	time.Sleep(gather + 100*time.Millisecond) // longer than the second update may be gathered
	released := time.Now()
	store.release()
	select {
	case <-store.started:
		if waited := time.Since(released); waited > gather*3/4 {
			t.Fatalf("the second write started %s after the first ended, want at once", waited)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the second update was never written")
	}
}
