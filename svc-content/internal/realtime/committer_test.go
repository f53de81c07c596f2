package realtime

import (
	"context"
	"encoding/binary"
	"fmt"
	"strings"
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
// to the store in one AppendBatch call; a slow write holds none of their
// relays (members here get an update at once, as from y-websocket and
// Hocuspocus servers).
func TestGroupCommitSpansDocumentsAndRelaysWhileStoring(t *testing.T) {
	t.Parallel()
	store := newGatedStore()
	hub := NewHub(Options{Store: store, Access: fakeAccess{}})
	srv := serveHub(t, hub) // its cleanup waits for the store: release first
	t.Cleanup(store.release)
	const docs = 5
	// The first update starts a write, which the gate holds.
	sendText(t, rawClient(t, srv.wsBase, "org1/first/ed1", "editor:ada", 0), 1, "hi")
	if n := <-store.started; n != 1 {
		t.Fatalf("first batch has %d items, want 1", n)
	}
	got := make([]chan int, docs)
	for i := range docs {
		room := fmt.Sprintf("org1/doc%d/ed1", i)
		reader := rawClient(t, srv.wsBase, room, "viewer:sam", 0)
		waitMembers(t, hub, DocKey{"ws1", "org1", fmt.Sprintf("doc%d", i), "ed1"}, 1)
		got[i] = relays(reader)
		sendText(t, rawClient(t, srv.wsBase, room, "editor:ada", 0), uint64(10+i), "hi")
	}
	for i := range docs {
		select {
		case <-got[i]:
		case <-time.After(10 * time.Second):
			t.Fatalf("the reader of doc%d got nothing while the store was slow", i)
		}
	}
	if state, _, _ := store.Load(t.Context(), DocKey{"ws1", "org1", "doc0", "ed1"}); state != nil {
		t.Fatal("doc0 was stored while the gate held the first write")
	}
	// A relay goes out before its room is queued for the store (the
	// relaying goroutine queues it next): release once all are queued.
	waitQueued(t, hub.committer, docs)
	store.release()
	if n := <-store.started; n != docs {
		t.Fatalf("the second batch has %d items, want the %d documents that waited", n, docs)
	}
}

// A Hocuspocus client is told an update is saved only once it is stored.
func TestHocuspocusAckWaitsForTheStore(t *testing.T) {
	t.Parallel()
	store := newGatedStore()
	srv := serveHub(t, NewHub(Options{Store: store, Access: fakeAccess{}}))
	t.Cleanup(store.release)
	ws, _, err := websocket.DefaultDialer.Dial(srv.wsBase+"/v2/crdt/hocuspocus", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ws.Close() })
	name := "org1/ack/ed1"
	auth := binary.AppendUvarint(appendHPString(nil, name), hpAuth)
	auth = binary.AppendUvarint(auth, hpAuthToken)
	auth = appendHPString(appendHPString(auth, "editor:ada"), "4.8.0")
	update := binary.AppendUvarint(appendHPString(nil, name), hpSync)
	update = yproto.AppendSync(update, yproto.SyncUpdate, textUpdate(t, 7, "saved?"))
	for _, m := range [][]byte{auth, update} {
		if err := ws.WriteMessage(websocket.BinaryMessage, m); err != nil {
			t.Fatal(err)
		}
	}
	acks := make(chan bool, 4)
	go func() {
		for {
			_, msg, err := ws.ReadMessage()
			if err != nil {
				close(acks)
				return
			}
			if typ, body, ok := hpTypeOf(msg, name); ok && typ == hpSyncStatus {
				acks <- len(body) == 1 && body[0] == 1
			}
		}
	}()
	<-store.started
	select {
	case <-acks:
		t.Fatal("the update was acknowledged before it was stored")
	case <-time.After(300 * time.Millisecond):
	}
	store.release()
	select {
	case saved, ok := <-acks:
		if !ok || !saved {
			t.Fatalf("acknowledgement saved=%v (open %v), want saved", saved, ok)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no acknowledgement after the store took the update")
	}
}

// While the store is slow a room holds at most about maxUnstoredBytes
// of unstored updates: a sender past it is no longer read until a batch
// is stored, and everything arrives once the store catches up.
func TestSlowStoreBoundsWhatWaits(t *testing.T) {
	t.Parallel()
	store := newGatedStore()
	hub := NewHub(Options{Store: store, Access: fakeAccess{}})
	srv := serveHub(t, hub)
	t.Cleanup(store.release)
	key := DocKey{"ws1", "org1", "bound", "ed1"}
	reader := rawClient(t, srv.wsBase, "org1/bound/ed1", "viewer:sam", 0)
	waitMembers(t, hub, key, 1)
	got := relays(reader)
	const n, size = 5, 400 << 10 // three updates pass the bound
	writer := rawClient(t, srv.wsBase, "org1/bound/ed1", "editor:ada", 0)
	d := yjs.NewDoc(9)
	go func() {
		for range n {
			u, err := d.Transact(func(tx *yjs.Tx) error {
				return d.Text("content").Insert(tx, 0, strings.Repeat("x", size), nil)
			})
			if err != nil || writer.WriteMessage(websocket.BinaryMessage, ywsSyncMessage(yproto.SyncUpdate, u)) != nil {
				return
			}
		}
	}()
	<-store.started // the first update is being written, and held
	relayed := 0
	for relayed < 3 {
		select {
		case <-got:
			relayed++
		case <-time.After(10 * time.Second):
			t.Fatalf("%d relays while the store was held, want 3 (up to the bound)", relayed)
		}
	}
	select {
	case <-got:
		t.Fatal("a fourth update was taken while the room held more than its bound unstored")
	case <-time.After(500 * time.Millisecond):
	}
	if r := hub.roomByKey(key); r == nil || unstoredBytes(r) > maxUnstoredBytes+size+1024 {
		t.Fatalf("room holds %d bytes unstored, bound %d", unstoredBytes(r), maxUnstoredBytes)
	}
	store.release()
	for relayed < n {
		select {
		case <-got:
			relayed++
		case <-time.After(10 * time.Second):
			t.Fatalf("%d of %d updates relayed after the store caught up", relayed, n)
		}
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if r := hub.roomByKey(key); r != nil && r.idleCommit() {
			break
		} else if time.Now().After(deadline) {
			t.Fatal("the updates were never all stored")
		}
	}
	state, _, _ := store.Load(t.Context(), key)
	stored := yjs.NewDoc(99)
	if err := stored.ApplyUpdate(state); err != nil || len(stored.Text("content").String()) != n*size {
		t.Fatalf("stored text of %d characters (%v), want %d", len(stored.Text("content").String()), err, n*size)
	}
}

func unstoredBytes(r *room) int {
	if r == nil {
		return -1
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.unstored
}

func newGatedStore() *gatedStore {
	return &gatedStore{MemoryStore: NewMemoryStore(), gate: make(chan struct{}), started: make(chan int, 64)}
}

func textUpdate(t *testing.T, client uint64, s string) []byte {
	t.Helper()
	d := yjs.NewDoc(client)
	u, err := d.Transact(func(tx *yjs.Tx) error { return d.Text("content").Insert(tx, 0, s, nil) })
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// sendText sends a y-websocket update inserting s.
func sendText(t *testing.T, ws *websocket.Conn, client uint64, s string) {
	t.Helper()
	if err := ws.WriteMessage(websocket.BinaryMessage, ywsSyncMessage(yproto.SyncUpdate, textUpdate(t, client, s))); err != nil {
		t.Fatal(err)
	}
}

// hpTypeOf reads a Hocuspocus message of document name: its type and the
// rest.
func hpTypeOf(msg []byte, name string) (uint64, []byte, bool) {
	l, n := binary.Uvarint(msg)
	if n <= 0 || len(msg) < n+int(l) || string(msg[n:n+int(l)]) != name {
		return 0, nil, false
	}
	rest := msg[n+int(l):]
	typ, m := binary.Uvarint(rest)
	if m <= 0 {
		return 0, nil, false
	}
	return typ, rest[m:], true
}

// relays reads ws in the background and sends on the channel for every
// relayed Yjs update.
func relays(ws *websocket.Conn) chan int {
	ch := make(chan int, 64)
	go func() {
		for {
			_, msg, err := ws.ReadMessage()
			if err != nil {
				return
			}
			if len(msg) > 1 && msg[0] == ywsSync && msg[1] == yproto.SyncUpdate {
				ch <- len(msg)
			}
		}
	}()
	return ch
}

// waitQueued waits until n rooms wait for the committer's next batch.
func waitQueued(t testing.TB, c *committer, n int) {
	t.Helper()
	waitCount(t, "rooms queued for the store", n, func() int {
		c.mu.Lock()
		defer c.mu.Unlock()
		return len(c.queued)
	})
}
