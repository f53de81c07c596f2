package realtime

import "time"

// Relays wait for a back-to-back sender's next update. At saturation a
// Hocuspocus client sends its next update as soon as its previous one is
// acknowledged, so the relays that reach it between an acknowledgement
// and its next update would each cost a write (the first at once, the
// rest of their burst by the held-message flusher), about one more per
// update than the acknowledgement's own: instead they wait for that
// update and ride with its acknowledgement (ackride.go), and so does the
// first relay of a burst to it while it awaits one.
//
// Only a back-to-back sender is waited for: one whose update came
// sooner after its previous acknowledgement went out than that
// acknowledgement had taken, so its pace is set by the server's
// acknowledgements (saturation: an acknowledgement takes a group commit,
// 10-25 ms in realtimebench, and the answer comes within a few). At a
// steady pace (an update a second, a person typing) the next update
// comes long after the acknowledgement and every relay goes out at once
// as before. A ratio rather than a fixed gap: on a loaded machine both
// stretch alike.
//
// The wait is bounded: a sender that does not send again within
// maxRideWait gets what waited then (a timer); once its update comes the
// relays ride as any held for an awaited acknowledgement (maxRideWait,
// maxRideBytes).

// noteAcksDue starts an awaited acknowledgement's ride (acksDue rose
// from 0; c.mu held): an update sooner after the previous
// acknowledgement went out than that one took makes c a back-to-back
// sender, and ends the wait for it.
func (c *conn) noteAcksDue(now int64) {
	c.acksDueFrom = now
	c.backToBack = c.ackedAt != 0 && now-c.ackedAt < c.ackWait
	if c.expectUntil != 0 {
		c.expectUntil = 0
		c.expectTimer.Stop()
	}
}

// noteAcked notes that c's acknowledgements went out (acksDue fell to 0;
// c.mu held): relays to a back-to-back sender now wait for its next
// update, for maxRideWait at most.
func (c *conn) noteAcked(now int64) {
	c.ackedAt, c.ackWait = now, now-c.acksDueFrom
	if !c.backToBack {
		return
	}
	c.expectUntil = now + int64(maxRideWait)
	if c.expectTimer == nil {
		c.expectTimer = time.AfterFunc(maxRideWait, c.expectLapsed)
	} else {
		c.expectTimer.Reset(maxRideWait)
	}
}

// expectLapsed ends a wait for c's next update that did not come: what
// waited is written now.
func (c *conn) expectLapsed() {
	c.mu.Lock()
	if c.expectUntil == 0 { // the update came: the relays ride with its acknowledgement
		c.mu.Unlock()
		return
	}
	if wait := c.expectUntil - nanotime(); wait > 0 { // woken early or renewed meanwhile
		c.expectTimer.Reset(time.Duration(wait))
		c.mu.Unlock()
		return
	}
	c.expectUntil = 0
	c.flushHeldLocked()
}

// waitsForAck reports whether a held message to c waits in the queue to
// ride with an acknowledgement even when the socket is quiet (c.mu
// held): c is a back-to-back sender whose acknowledgement is awaited, or
// whose next update is.
func (c *conn) waitsForAck() bool { return c.backToBack && c.ridesWithAck() }
