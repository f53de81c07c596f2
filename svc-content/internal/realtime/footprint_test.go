package realtime

import (
	"fmt"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/opencollab/backend/svc-content/internal/realtime/yproto"
)

// maxIdleConnBytes bounds what an idle y-websocket session costs this
// process (heap plus goroutine stacks, client sockets included): the
// README's memory goal needs the server's side of a connection small.
const maxIdleConnBytes = 8 << 10

// An idle session holds no goroutine and no read or write buffer: the
// process's heap and stacks grow by less than maxIdleConnBytes per
// connection. The clients are bare TCP sockets after the upgrade, so
// nearly all of what is counted is the server's.
func TestIdleConnectionFootprint(t *testing.T) {
	if testing.Short() {
		t.Skip("opens many sockets")
	}
	srv := startServer(t, nil, nil, Settings{})
	const docs, perDoc = 20, 10
	// Load the rooms first: an idle connection's cost excludes its document's.
	warm := make([]net.Conn, 0, docs)
	for d := range docs {
		warm = append(warm, bareClient(t, srv.wsBase, fmt.Sprintf("org1/idle%d/ed1", d)))
	}
	for d := range docs {
		waitMembers(t, srv.hub, DocKey{"ws1", "org1", fmt.Sprintf("idle%d", d), "ed1"}, 1)
	}
	before := footprint()
	conns := make([]net.Conn, 0, docs*perDoc)
	for d := range docs {
		for i := range perDoc {
			c := bareClient(t, srv.wsBase, fmt.Sprintf("org1/idle%d/ed1", d))
			// One edit each: the server's side has handled a message
			// (a reader that kept a deep stack or a buffer would show).
			update := textUpdate(t, uint64(1000+d*perDoc+i), "x")
			writeMaskedFrame(t, c, ywsSyncMessage(yproto.SyncUpdate, update))
			conns = append(conns, c)
		}
	}
	for d := range docs {
		waitMembers(t, srv.hub, DocKey{"ws1", "org1", fmt.Sprintf("idle%d", d), "ed1"}, perDoc+1)
	}
	waitStored(t, srv.store, docs)
	time.Sleep(200 * time.Millisecond) // the upgrade goroutines end
	per := (footprint() - before) / int64(len(conns))
	t.Logf("idle connection: %d bytes (heap + stacks) each, %d goroutines in all", per, runtime.NumGoroutine())
	if per > maxIdleConnBytes {
		t.Fatalf("an idle connection costs %d bytes, want at most %d", per, maxIdleConnBytes)
	}
	runtime.KeepAlive(warm)
	runtime.KeepAlive(conns)
}

// A token is kept once however many sessions came with it: each
// connection reads its own copy from its Auth message, a few hundred
// bytes (a JWT) that a user's tabs, or a benchmark's clients, repeat.
func TestSessionsKeepATokenOnce(t *testing.T) {
	const n, size = 200, 4 << 10
	s := newSessions(nil)
	token := strings.Repeat("t", size)
	members := make([]*member, n)
	for i := range members {
		members[i] = &member{grant: Grant{Workspace: "ws1", UserID: "ada"}}
	}
	before := footprint()
	for _, m := range members {
		s.add(m, strings.Clone(token))
	}
	per := (footprint() - before) / n
	t.Logf("%d bytes per session of a %d-byte token", per, size)
	if per > size/4 {
		t.Fatalf("a session of a %d-byte token keeps %d bytes: the token is copied per session", size, per)
	}
	runtime.KeepAlive(s)
	runtime.KeepAlive(members)
}

// footprint is the live heap plus goroutine stacks after a collection.
func footprint() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc + ms.StackInuse)
}

// bareClient upgrades a y-websocket connection by hand and keeps only the
// socket: no reader, no library state on the client side.
func bareClient(t testing.TB, wsBase, room string) net.Conn {
	t.Helper()
	return bareUpgrade(t, wsBase, "/v2/crdt/sync/"+room+"?token=editor:ada")
}

// writeMaskedFrame writes msg as one masked binary frame (mask key zero,
// so the payload goes as is), as a client must.
func writeMaskedFrame(t *testing.T, c net.Conn, msg []byte) {
	t.Helper()
	if len(msg) > 125 {
		t.Fatalf("test frame of %d bytes: only short frames are written here", len(msg))
	}
	frame := append([]byte{0x82, 0x80 | byte(len(msg)), 0, 0, 0, 0}, msg...)
	if _, err := c.Write(frame); err != nil {
		t.Fatal(err)
	}
}

// waitStored waits until the store holds n documents.
func waitStored(t *testing.T, s *MemoryStore, n int) {
	t.Helper()
	waitCount(t, "documents stored", n, func() int {
		s.mu.Lock()
		defer s.mu.Unlock()
		return len(s.docs)
	})
}

// waitCount waits up to 20 s until count returns n (what names it).
func waitCount(t testing.TB, what string, n int, count func() int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		got := count()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d %s, want %d", got, what, n)
		}
		time.Sleep(time.Millisecond)
	}
}
