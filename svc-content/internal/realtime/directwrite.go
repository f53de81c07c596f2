package realtime

import "time"

// burstGap is how long after a direct write further messages are
// gathered (relays held, see hold; others by the writer goroutine) into
// one system call: a saturated room sends each member several relays
// per commit, and written one by one they cost a system call each,
// about 8 times as many. At a steady pace a member receives a relay
// every ~100 ms; few fall within.
const burstGap = 250 * time.Microsecond

// quiet reports whether nothing was written directly within burstGap
// and notes now as the last direct write if so (c.mu held).
func (c *conn) quiet() bool {
	now := nanotime()
	if now-c.wroteAt < int64(burstGap) {
		return false
	}
	c.wroteAt = now
	return true
}

// sendNow writes b from the sending goroutine when the socket takes it
// at once, as a Hocuspocus or y-websocket server writes from its event
// loop; only a socket that is full or busy waits for the writer
// goroutine. Messages sent meanwhile were queued behind b.
func (c *conn) sendNow(b []byte) {
	taken, all := c.out.writeNow(c.raw, [][]byte{b}, c.settings.WriteTimeout)
	c.mu.Lock()
	if !taken && !c.closing { // closing: a close frame may be out already
		c.queue = append(c.queue, nil)
		copy(c.queue[1:], c.queue)
		c.queue[0] = b
		c.queued += len(b)
	}
	c.endDirect(all)
}

// endDirect ends a direct write (c.mu held; released): the turn is over
// when the socket took everything and nothing was queued meanwhile, else
// the writer goroutine writes the rest.
func (c *conn) endDirect(all bool) {
	if all && len(c.queue) == 0 {
		c.doneWriting()
		return
	}
	c.startWriter()
	c.mu.Unlock()
}
