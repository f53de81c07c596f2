package realtime

import (
	"context"
	"fmt"
	"net"
	"sync/atomic"
	"testing"
	"time"
)

// TestSaturatedSendersGetOneWritePerAck: 4 rooms of 10 Hocuspocus
// members each sending its next update as soon as the previous one is
// acknowledged (realtimebench's saturation). The relays that come
// between a member's acknowledgement and its next update wait for that
// update and ride with its acknowledgement: 0.97-1.32 server writes
// per acknowledged update (the store taking 10 ms a batch, as a
// saturated replica's does); 2.03-2.59 on main, where the first relay
// after each acknowledgement (and the first of each burst) had a write
// of its own.
func TestSaturatedSendersGetOneWritePerAck(t *testing.T) {
	const rooms, members, warm, rounds = 4, 10, 5, 40
	srv := serveHub(t, NewHub(Options{Store: slowStore{}, Access: fakeAccess{}}))
	var clients []*saturatingClient
	for r := range rooms {
		name := fmt.Sprintf("org1/saturate%d/ed1", r)
		for m := range members {
			c := &saturatingClient{
				conn:   hpBareClient(t, srv.wsBase, name, uint64(m)),
				frames: hpTypedFrames(t, name, uint64(1000+m), warm+rounds),
			}
			clients = append(clients, c)
		}
	}
	for _, c := range clients {
		c.next() // before run: an acknowledgement makes run send the next
		go c.run()
	}
	acks := func() (n int64) {
		for _, c := range clients {
			n += c.acked.Load()
		}
		return n
	}
	waitFor(t, "the warm-up acknowledged", func() bool { return acks() >= rooms*members*warm })
	writes, from := syscw(), acks()
	waitFor(t, "every update acknowledged", func() bool { return acks() == rooms*members*(warm+rounds) })
	// The clients' own writes are one per update.
	acked := acks() - from
	perAck := (float64(syscw()-writes) - float64(acked)) / float64(acked)
	t.Logf("%.2f server writes per acknowledged update at saturation (%d acknowledged)", perAck, acked)
	if perAck > 1.5 {
		t.Fatalf("%.2f server writes per acknowledged update at saturation, want at most 1.5: the relays between an acknowledgement and the next update went alone", perAck)
	}
}

// slowStore keeps nothing and takes storeTook per batch, as a saturated
// replica's store write takes milliseconds: the clients then wait for
// their acknowledgements far longer than they take to answer them.
type slowStore struct{ discardStore }

const storeTook = 10 * time.Millisecond

func (s slowStore) AppendBatch(ctx context.Context, b []Append) []error {
	time.Sleep(storeTook)
	return s.discardStore.AppendBatch(ctx, b)
}

// saturatingClient is a Hocuspocus client on a bare socket that sends
// its next update as soon as the previous one is acknowledged.
type saturatingClient struct {
	conn   net.Conn
	frames [][]byte
	sent   int
	acked  atomic.Int64
}

// next sends the next update, if any is left.
func (c *saturatingClient) next() {
	if c.sent < len(c.frames) {
		_, _ = c.conn.Write(c.frames[c.sent])
		c.sent++
	}
}

// run reads what the server sends (relays, acknowledgements), answering
// each acknowledgement with the next update.
func (c *saturatingClient) run() {
	readHPFrames(c.conn, func(typ uint64) {
		if typ == hpSyncStatus {
			c.acked.Add(1)
			c.next()
		}
	})
}

// TestRelaysToASenderThatStopsGoWithinTheBound: a relay to a
// back-to-back sender (its update came right after its previous
// acknowledgement, which had taken a second: a test on a loaded machine
// must not see its own pauses as a sender's pace) waits for its next update, not
// written at once although the socket is quiet; the sender sends nothing
// more, and the relay goes out within maxRideWait (a timer), after which
// relays go at once again.
func TestRelaysToASenderThatStopsGoWithinTheBound(t *testing.T) {
	m, c := tcpMember(t)
	ackCycle(t, m, time.Second)
	ackCycle(t, m, time.Second) // answered at once: back-to-back
	start := time.Now()
	relayQuietly(c, []byte("first"))
	if n := queuedMessages(c); n != 1 {
		t.Fatalf("%d messages queued, want the relay waiting for the back-to-back sender's next update", n)
	}
	waitFor(t, "the relay written", func() bool { return allWritten(c) })
	if took := time.Since(start); took > maxRideWait+time.Second { // a loaded machine's timer slack
		t.Fatalf("the relay waited %v for an update that never came, want about %v", took, maxRideWait)
	}
	relayQuietly(c, []byte("later"))
	if n := queuedMessages(c); n != 0 {
		t.Fatalf("%d messages queued after the wait lapsed, want a relay written at once", n)
	}
}

// TestRelaysToASteadySenderGoAtOnce: a sender whose next update comes
// long after its acknowledgement (realtimebench's steady phase, a
// person typing) is not waited for: a relay to it is written at once,
// while its acknowledgement is awaited and after it went out. The same
// relays to a back-to-back sender wait.
func TestRelaysToASteadySenderGoAtOnce(t *testing.T) {
	for _, steady := range []bool{true, false} {
		m, c := tcpMember(t)
		ackCycle(t, m, time.Second)
		if steady {
			c.mu.Lock()
			c.ackedAt -= int64(time.Minute) // the next update comes a minute later
			c.mu.Unlock()
		}
		m.awaitAck()
		relayQuietly(c, []byte("awaiting"))
		if n := queuedMessages(c); (n == 0) != steady {
			t.Fatalf("steady %v: %d messages queued after a relay while the acknowledgement is awaited", steady, n)
		}
		endCycle(t, m, time.Second)
		relayQuietly(c, []byte("acknowledged"))
		if n := queuedMessages(c); (n == 0) != steady {
			t.Fatalf("steady %v: %d messages queued after a relay following the acknowledgement", steady, n)
		}
	}
}

// ackCycle has an update of m awaited for took, then acknowledged as a
// commit release does.
func ackCycle(t *testing.T, m *member, took time.Duration) {
	m.awaitAck()
	endCycle(t, m, took)
}

// endCycle acknowledges m's awaited update as if it had taken took, and
// waits until the acknowledgement (and what rode with it) is written.
func endCycle(t *testing.T, m *member, took time.Duration) {
	m.c.mu.Lock()
	m.c.acksDueFrom -= int64(took)
	m.c.mu.Unlock()
	m.queueAck()
	m.c.flushHeld()
	waitFor(t, "the acknowledgement written", func() bool { return allWritten(m.c) })
}

// allWritten reports whether c has nothing queued and no write under way:
// a queue emptied by a write still being finished is not yet a quiet
// socket (a relay then would be queued behind it).
func allWritten(c *conn) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.queue) == 0 && !c.writing
}

// relayQuietly holds b as a relay to a socket that wrote nothing lately:
// on its own, it would be written at once.
func relayQuietly(c *conn, b []byte) {
	c.mu.Lock()
	c.wroteAt = 0
	c.mu.Unlock()
	c.hold(b)
}
