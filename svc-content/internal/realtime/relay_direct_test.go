package realtime

import (
	"bytes"
	"io"
	"math"
	"net"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/testalloc"
)

// TestRelayIsWrittenByTheRelayingGoroutine: an update relayed to members
// whose sockets have room is written by the goroutine that relays it,
// not handed to a writer goroutine per member (one start and one
// wake-up per delivery each, the delivery's latency under load). Updates
// go one at a time, as at the README's steady load, so no writer is busy
// and no burst is gathered.
func TestRelayIsWrittenByTheRelayingGoroutine(t *testing.T) {
	const peers, updates = 9, 50
	hub := NewHub(Options{Store: discardStore{}, Access: fakeAccess{}})
	srv := serveHub(t, hub)
	relayed := new(atomic.Int64)
	for range peers {
		go countUpdates(bareClient(t, srv.wsBase, "org1/bench/ed1"), relayed)
	}
	sender := bareClient(t, srv.wsBase, "org1/bench/ed1")
	go func() { _, _ = io.Copy(io.Discard, sender) }()
	key := DocKey{"ws1", "org1", "bench", "ed1"}
	waitMembers(t, hub, key, peers+1)
	frames := appendFrames(t, updates)
	flushes, created := writerStarts(hub, key), goroutinesCreated()
	for i, f := range frames {
		if _, err := sender.Write(f); err != nil {
			t.Fatal(err)
		}
		for relayed.Load() < int64(peers*(i+1)) {
			runtime.Gosched()
		}
		time.Sleep(2 * burstGap) // a steady pace, not a burst
	}
	// Counted on this room's connections: the process-wide count of
	// goroutines started (logged) also holds other tests' leftovers.
	perUpdate := float64(writerStarts(hub, key)-flushes) / updates
	t.Logf("%.2f writer goroutines, %.2f goroutines in all started per update relayed to %d members",
		perUpdate, float64(goroutinesCreated()-created)/updates, peers)
	// Before the direct write every delivery started one (9 per update);
	// a socket that does not take a frame at once may still need one.
	if perUpdate > 0.5 {
		t.Fatalf("%.2f writer goroutines started per update relayed to %d members, want at most 0.5", perUpdate, peers)
	}
}

// writerStarts sums the flush goroutines started on the connections of
// the room key.
func writerStarts(hub *Hub, key DocKey) int {
	r := hub.roomByKey(key)
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for m := range r.members {
		m.c.mu.Lock()
		n += m.c.flushes
		m.c.mu.Unlock()
	}
	return n
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
	allocs := testalloc.PerRun(runs, func() {
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

// TestBurstOfRelaysStartsNoWriter: the relays of a burst (updates that
// arrive together, as a saturated room's members send their next ones
// once acknowledged) are held and go out to each member in one write by
// the held-message flusher, not by a writer goroutine started per member
// and burst (one start each before, 9 per burst here).
func TestBurstOfRelaysStartsNoWriter(t *testing.T) {
	const peers, updates, bursts = 9, 20, 3
	hub, sender, relayed := relayRoom(t, peers)
	key := DocKey{"ws1", "org1", "bench", "ed1"}
	frames := appendFrames(t, bursts*updates) // one editor typing on
	// The write count is the process's (/proc/self/io): a log line or a
	// previous test's goroutine adds to it, never takes away, so the
	// least of up to three bursts is the burst's own.
	best := math.Inf(1)
	for k := range bursts {
		relayed.Store(0)
		starts, writes := writerStarts(hub, key), syscw()
		sendFrames(t, sender, relayed, peers, frames[k*updates:(k+1)*updates])
		if started := writerStarts(hub, key) - starts; started != 0 {
			t.Fatalf("a burst of relays started %d writer goroutines, want 0", started)
		}
		// The sender's one write is the test's; the server's are per member.
		perMember := float64(syscw()-writes-1) / peers
		t.Logf("burst %d of %d updates: %.2f writes per member", k+1, updates, perMember)
		if best = min(best, perMember); best <= 3 {
			break
		}
	}
	// The first relay is written at once, the burst's rest together.
	if best > 3 {
		t.Fatalf("%.2f writes per member for a burst of %d relays (least of %d bursts), want at most 3", best, updates, bursts)
	}
}

// sendBurst sends updates typed characters in one write (they arrive
// together, as a saturated room's do) and waits until each of peers has
// been relayed all of them.
func sendBurst(t *testing.T, sender net.Conn, relayed *atomic.Int64, peers, updates int) {
	t.Helper()
	sendFrames(t, sender, relayed, peers, appendFrames(t, updates))
}

// sendFrames sends frames in one write and waits until relayed counts
// each of them for each of peers.
func sendFrames(t *testing.T, sender net.Conn, relayed *atomic.Int64, peers int, frames [][]byte) {
	t.Helper()
	if _, err := sender.Write(bytes.Join(frames, nil)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for relayed.Load() < int64(peers*len(frames)) {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d relays arrived", relayed.Load(), peers*len(frames))
		}
		runtime.Gosched()
	}
}
