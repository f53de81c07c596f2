package realtime

import "time"

// Held relays ride with acknowledgements. At saturation a Hocuspocus
// client sends its next update only once the previous one is
// acknowledged (after the group commit stored it), so relays held in a
// burst for a socket whose own update awaits storing help that client
// nothing before the acknowledgement: the held-message flusher leaves
// them, and the commit release writes them with the acknowledgement,
// one write per socket per commit instead of an acknowledgement's and
// one or two of relays (realtimebench's saturation). Only held relays
// (a burst, see quiet) wait: at a steady pace a relay is written at once
// as before. Every path that ends an awaited acknowledgement (stored,
// failed, room broken) settles it, and the held relays go then at the
// latest.

// acks reports whether m's protocol acknowledges updates (Hocuspocus;
// y-websocket has none).
func (m *member) acks() bool { return m.framer.syncStatus(true) != nil }

// awaitAck notes that an update of m waits to be stored and acknowledged
// (its room's lock held).
func (m *member) awaitAck() {
	if !m.acks() {
		return
	}
	m.c.mu.Lock()
	if m.c.acksDue == 0 {
		m.c.noteAcksDue(nanotime())
	}
	m.c.acksDue++
	m.c.mu.Unlock()
}

// ackSettled ends the wait awaitAck noted (the acknowledgement will
// never come) and writes what was held meanwhile.
func (m *member) ackSettled() {
	m.c.mu.Lock()
	m.endAckWaitLocked()
	m.c.flushHeldLocked()
}

// queueAck queues the acknowledgement of m's stored update, to be
// written with what was held for it by flushHeld. The wait ends before
// the acknowledgement is queued: the client's next update may come right
// behind it, and must find the wait over.
func (m *member) queueAck() {
	ack := m.framer.syncStatus(true)
	m.c.mu.Lock()
	m.endAckWaitLocked()
	m.c.mu.Unlock()
	m.hold(ack)
}

// endAckWaitLocked ends a wait awaitAck noted (m.c.mu held).
func (m *member) endAckWaitLocked() {
	c := m.c
	if !m.acks() {
		return
	}
	c.acksDue--
	if c.acksDue == 0 {
		c.noteAcked(nanotime())
	}
}

// flushHeld writes what c holds (the acknowledgements queueAck queued,
// the relays held with them).
func (c *conn) flushHeld() {
	c.mu.Lock()
	c.flushHeldLocked()
}

// settleAcks settles the awaited acknowledgements of updates that will
// not be released (their room failed).
func settleAcks(pending []pendingUpdate) {
	for _, pu := range pending {
		pu.from.ackSettled()
	}
}

// ridesWithAck reports whether c's held messages wait for the
// acknowledgement c awaits, which a commit release writes with them, or
// for the next update of a back-to-back sender (ackexpect.go) (c.mu
// held). Past maxRideBytes, or once c has awaited an acknowledgement
// for maxRideWait, they go as before: a store that
// stalls must neither let a socket's queue grow towards SendQueueBytes
// (which disconnects) nor keep other editors' changes from a member for
// longer than a commit takes (the next relay is then listed with the
// flusher, which writes the whole queue).
func (c *conn) ridesWithAck() bool {
	switch {
	case c.queued >= maxRideBytes:
		return false
	case c.acksDue > 0:
		return nanotime()-c.acksDueFrom < int64(maxRideWait)
	}
	return c.expectUntil != 0 && nanotime() < c.expectUntil
}

// maxRideWait bounds how long held relays wait for an acknowledgement:
// a group commit gathers for CommitGather (5 ms by default) and its
// store write takes a few more at saturation.
const maxRideWait = 20 * time.Millisecond

// maxRideBytes bounds what waits for an acknowledgement on one socket;
// at saturation a commit's relays to a member are some hundreds of bytes.
const maxRideBytes = batchFlushAt
