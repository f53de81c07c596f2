package realtime

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/opencollab/backend/svc-content/internal/realtime/yproto"
	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// gatedStore is a MemoryStore whose AppendBatch reports each batch's size
// and waits for the gate.
type gatedStore struct {
	*MemoryStore
	gate    chan struct{}
	open    sync.Once
	started chan int
}

func (s *gatedStore) AppendBatch(ctx context.Context, batch []Append) []error {
	s.started <- len(batch)
	<-s.gate
	return s.MemoryStore.AppendBatch(ctx, batch)
}

func (s *gatedStore) release() { s.open.Do(func() { close(s.gate) }) }

// The updates of every document that arrive while a write is under way go
// to the store in one AppendBatch call, and none is relayed before it is
// stored.
func TestGroupCommitSpansDocumentsAndStoresBeforeRelay(t *testing.T) {
	t.Parallel()
	store := &gatedStore{MemoryStore: NewMemoryStore(), gate: make(chan struct{}), started: make(chan int, 16)}
	hub := NewHub(Options{Store: store, Access: fakeAccess{}})
	srv := serveHub(t, hub) // its cleanup waits for the store: release first
	t.Cleanup(store.release)
	const docs = 5
	send := func(room string, id uint64) {
		w := rawClient(t, srv.wsBase, room, "editor:ada", 0)
		d := yjs.NewDoc(id)
		u, err := d.Transact(func(tx *yjs.Tx) error { return d.Text("content").Insert(tx, 0, "hi", nil) })
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteMessage(websocket.BinaryMessage, ywsSyncMessage(yproto.SyncUpdate, u)); err != nil {
			t.Fatal(err)
		}
	}
	// The first update starts a write, which the gate holds.
	send("org1/first/ed1", 1)
	if n := <-store.started; n != 1 {
		t.Fatalf("first batch has %d items, want 1", n)
	}
	readers := make([]*websocket.Conn, docs)
	for i := range docs {
		room := fmt.Sprintf("org1/doc%d/ed1", i)
		readers[i] = rawClient(t, srv.wsBase, room, "viewer:sam", 0)
		waitMembers(t, hub, DocKey{"ws1", "org1", fmt.Sprintf("doc%d", i), "ed1"}, 1)
		send(room, uint64(10+i))
	}
	for i := range docs { // every update applied and waiting to be stored
		key := DocKey{"ws1", "org1", fmt.Sprintf("doc%d", i), "ed1"}
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			if r := hub.roomByKey(key); r != nil && !r.idleCommit() {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the update of %s never waited for the store", key.Doc)
			}
		}
	}
	got := make([]chan struct{}, docs)
	for i, r := range readers {
		got[i] = relayed(r)
	}
	select {
	case <-got[0]:
		t.Fatal("an update was relayed before it was stored")
	case <-time.After(300 * time.Millisecond):
	}
	store.release()
	if n := <-store.started; n != docs {
		t.Fatalf("the second batch has %d items, want the %d documents that waited", n, docs)
	}
	for i := range readers {
		select {
		case <-got[i]:
		case <-time.After(10 * time.Second):
			t.Fatalf("the reader of doc%d never got the stored update", i)
		}
	}
}

// relayed reads ws in the background; the channel closes when a relayed
// Yjs update arrives.
func relayed(ws *websocket.Conn) chan struct{} {
	ch := make(chan struct{})
	go func() {
		for {
			_, msg, err := ws.ReadMessage()
			if err != nil {
				return
			}
			if len(msg) > 1 && msg[0] == ywsSync && msg[1] == yproto.SyncUpdate {
				close(ch)
				return
			}
		}
	}()
	return ch
}
