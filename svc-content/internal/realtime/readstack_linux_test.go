package realtime

import (
	"io"
	"net"
	"runtime/debug"
	"testing"
)

// TestUpdatePathFitsAReadWorkersStack: a read worker's stack, grown by
// growReadStack, holds the apply and relay of an update without being
// grown again deep in the path (a stack copy there walks a dozen
// frames; a new worker's stack, or one the GC shrank while it was
// parked, was grown that way on every burst at saturation). A stack
// that grows moves: the same frame lies at another address.
func TestUpdatePathFitsAReadWorkersStack(t *testing.T) {
	const peers = 9
	hub := NewHub(Options{Store: discardStore{}, Access: fakeAccess{}})
	srv := serveHub(t, hub)
	for range peers + 1 {
		go func(c net.Conn) { _, _ = io.Copy(io.Discard, c) }(bareClient(t, srv.wsBase, "org1/bench/ed1"))
	}
	key := DocKey{"ws1", "org1", "bench", "ed1"}
	waitMembers(t, hub, key, peers+1)
	r := hub.roomByKey(key)
	var sender *member
	r.mu.Lock()
	for m := range r.members {
		sender = m
	}
	r.mu.Unlock()
	updates := typedUpdates(t, 2)
	handle := func(u []byte) error { return hub.handleYWS(sender, ywsSyncMessage(2, u)) }
	if err := handle(updates[0]); err != nil { // the room's first update warms it up
		t.Fatal(err)
	}
	// A GC could shrink the stack while the update waits on a lock: a
	// move that is not growth.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	moved := make(chan bool)
	go func() {
		growReadStack(0)
		at := stackAt()
		if err := handle(updates[1]); err != nil {
			t.Error(err)
		}
		moved <- stackAt() != at
	}()
	if <-moved {
		t.Fatal("the worker's stack grew while it applied and relayed an update")
	}
}

// TestStackAtSeesAMovedStack: the read worker grows its stack again only
// when stackAt changed, so stackAt must change when the stack moves.
func TestStackAtSeesAMovedStack(t *testing.T) {
	moved := make(chan bool)
	go func() {
		at := stackAt()
		deepFrame(0) // more than a new goroutine's stack holds: it moves
		moved <- stackAt() != at
	}()
	if !<-moved {
		t.Fatal("stackAt is the same after the stack grew")
	}
}

//go:noinline
func deepFrame(i int) byte {
	var pad [64 << 10]byte
	pad[i] = 1
	return pad[i/2]
}
