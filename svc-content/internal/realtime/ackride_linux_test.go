package realtime

import (
	"fmt"
	"io"
	"net"
	"sync/atomic"
	"testing"
	"time"
)

// TestAcksCarryTheHeldRelays: when every Hocuspocus member of 10 rooms
// of 10 sends an update at once (a saturated replica's clients answering
// their acknowledgements), the relays held for a member whose own update
// awaits its acknowledgement go out with that acknowledgement: 2.05-2.34
// server writes per acknowledged update (the burst's first relay,
// written at once, and the acknowledgement with the held relays);
// 3.03-3.15 on main, where the held relays had a write of their own.
func TestAcksCarryTheHeldRelays(t *testing.T) {
	const rooms, members, rounds = 10, 10, 10
	srv := serveHub(t, NewHub(Options{Store: discardStore{}, Access: fakeAccess{}}))
	relayed, acked := new(atomic.Int64), new(atomic.Int64)
	var clients []net.Conn
	var frames [][][]byte // per client, per round
	for r := range rooms {
		name := fmt.Sprintf("org1/ackride%d/ed1", r)
		for m := range members {
			c := hpBareClient(t, srv.wsBase, name, uint64(m))
			go countHPFrames(c, relayed, acked)
			clients = append(clients, c)
			frames = append(frames, hpTypedFrames(t, name, uint64(1000+m), rounds+1))
		}
	}
	round := func(k int) {
		sendRound(t, clients, func(i int) []byte { return frames[i][k] })
		relays := int64(rooms * members * (members - 1) * (k + 1))
		acks := int64(rooms * members * (k + 1))
		waitFor(t, fmt.Sprintf("round %d relayed and acknowledged", k), func() bool {
			return relayed.Load() >= relays && acked.Load() >= acks
		})
		time.Sleep(2 * burstGap) // the next round is a burst of its own
	}
	round(0)
	writes := syscw()
	for k := 1; k <= rounds; k++ {
		round(k)
	}
	// The clients' own writes are one per update.
	const updates = rooms * members * rounds
	perUpdate := float64(syscw()-writes-updates) / updates
	t.Logf("%.2f server writes per acknowledged update relayed to %d members", perUpdate, members-1)
	if perUpdate > 2.6 {
		t.Fatalf("%.2f server writes per acknowledged update, want at most 2.6: the held relays did not ride with the acknowledgement", perUpdate)
	}
}

// hpTypedFrames are n masked client frames of Hocuspocus sync updates to
// name, one editor (Yjs client id) typing a character each.
func hpTypedFrames(t *testing.T, name string, client uint64, n int) [][]byte {
	return hpFramesOf(t, name, typedFrames(t, client, n))
}

// TestHeldRelaysWaitForTheAwaitedAck: a relay held for a member awaiting
// an acknowledgement stays queued when the held-message flusher comes
// (no write of its own) and goes out once the acknowledgement is
// settled, also when the update is never stored (a failed room). Past
// maxRideBytes the flusher writes what is held as before.
func TestHeldRelaysWaitForTheAwaitedAck(t *testing.T) {
	m, c := tcpMember(t)
	m.awaitAck()
	holdInBurst(c, []byte("relay"))
	waitFor(t, "the flusher took its list", func() bool { return !listed(c) })
	if n := queuedMessages(c); n != 1 {
		t.Fatalf("%d messages queued after the flusher ran, want the held relay waiting for the acknowledgement", n)
	}
	settleAcks([]pendingUpdate{{from: m}}) // the room failed: no acknowledgement comes
	waitFor(t, "the held relay written", func() bool { return queuedMessages(c) == 0 })
	c.mu.Lock()
	due := c.acksDue
	c.mu.Unlock()
	if due != 0 {
		t.Fatalf("%d acknowledgements still due after settling the only one", due)
	}

	m.awaitAck()
	holdInBurst(c, make([]byte, maxRideBytes))
	waitFor(t, "a large held queue written by the flusher", func() bool { return queuedMessages(c) == 0 })
}

// tcpMember is a Hocuspocus member on a conn over a loopback TCP socket
// whose peer discards what it reads.
func tcpMember(t *testing.T) (*member, *conn) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		peer, err := ln.Accept()
		if err == nil {
			_, _ = io.Copy(io.Discard, peer)
		}
	}()
	nc, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = nc.Close() })
	s := Settings{}.WithDefaults()
	c := newConn(&batchConn{Conn: nc}, &s)
	return &member{c: c, framer: newHPFramer("org1/ride/ed1")}, c
}

// holdInBurst holds b as a relay coming right after a direct write.
func holdInBurst(c *conn, b []byte) {
	c.mu.Lock()
	c.wroteAt = nanotime()
	c.mu.Unlock()
	c.hold(b)
}

func listed(c *conn) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.listed
}

func queuedMessages(c *conn) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.queue)
}

// TestHeldRelaysStopRidingWithALateAck: once a member has awaited its
// acknowledgement for maxRideWait (a store that stalls), a relay held
// for it is written by the flusher as before, with what waited earlier.
func TestHeldRelaysStopRidingWithALateAck(t *testing.T) {
	m, c := tcpMember(t)
	m.awaitAck()
	holdInBurst(c, []byte("early"))
	waitFor(t, "the flusher took its list", func() bool { return !listed(c) })
	if n := queuedMessages(c); n != 1 {
		t.Fatalf("%d messages queued, want the early relay riding with the acknowledgement", n)
	}
	c.mu.Lock()
	c.acksDueFrom = nanotime() - int64(maxRideWait) - int64(time.Millisecond)
	c.mu.Unlock()
	holdInBurst(c, []byte("late"))
	waitFor(t, "both relays written by the flusher", func() bool { return queuedMessages(c) == 0 })
}
