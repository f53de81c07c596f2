package realtime

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestRelayIsWrittenByTheRelayingGoroutine: an update relayed to members
// whose sockets have room is written by the goroutine that relays it,
// not handed to a writer goroutine per member (one start and one
// wake-up per delivery each, the delivery's latency under load). Updates
// go one at a time, as at the README's steady load, so no writer is busy
// and no burst is gathered.
func TestRelayIsWrittenByTheRelayingGoroutine(t *testing.T) {
	const peers, updates = 9, 50
	sender, relayed := relayRoom(t, peers)
	frames := appendFrames(t, updates)
	created := goroutinesCreated()
	for i, f := range frames {
		if _, err := sender.Write(f); err != nil {
			t.Fatal(err)
		}
		for relayed.Load() < int64(peers*(i+1)) {
			runtime.Gosched()
		}
		time.Sleep(2 * burstGap) // a steady pace, not a burst
	}
	perUpdate := float64(goroutinesCreated()-created) / updates
	t.Logf("%.2f goroutines started per update relayed to %d members", perUpdate, peers)
	// The frame's read and the group commit may start one each.
	if perUpdate > 3 {
		t.Fatalf("%.2f goroutines started per update relayed to %d members, want at most 3", perUpdate, peers)
	}
}

// TestDirectDeliveryAllocatesNothing: a message written at once to a
// member's socket (pooled frame buffer and system call) allocates nothing.
func TestDirectDeliveryAllocatesNothing(t *testing.T) {
	hub := NewHub(Options{Store: discardStore{}, Access: fakeAccess{}})
	srv := serveHub(t, hub)
	var relayed atomic.Int64
	c := bareClient(t, srv.wsBase, "org1/bench/ed1")
	go countUpdates(c, &relayed)
	key := DocKey{"ws1", "org1", "bench", "ed1"}
	waitMembers(t, hub, key, 1)
	r := hub.roomByKey(key)
	r.mu.Lock()
	var m *member
	for only := range r.members {
		m = only
	}
	r.mu.Unlock()
	msg := ywsSyncMessage(2, []byte{0, 0})
	// A blocking write's deadline (a flush's, a ping's) that has passed
	// does not send the next message to the writer goroutine.
	_ = m.c.out.Conn.SetWriteDeadline(time.Now().Add(-time.Second))
	time.Sleep(2 * burstGap)
	created := goroutinesCreated()
	m.send(msg)
	if n := goroutinesCreated() - created; n != 0 {
		t.Fatalf("a send after a passed write deadline started %d goroutines, want 0", n)
	}
	const runs = 50
	allocs := testing.AllocsPerRun(runs, func() {
		time.Sleep(2 * burstGap) // each send finds the socket quiet
		m.send(msg)
	})
	if allocs != 0 {
		t.Fatalf("%.1f allocations per delivery, want 0", allocs)
	}
	deadline := time.Now().Add(10 * time.Second)
	for relayed.Load() < runs+2 { // the first send's and the warm-up run's
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d messages arrived", relayed.Load(), runs+2)
		}
		runtime.Gosched()
	}
	m.c.mu.Lock()
	defer m.c.mu.Unlock()
	if m.c.writing {
		t.Fatal("a writer goroutine is still pending after direct deliveries")
	}
}
