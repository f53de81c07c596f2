package realtime

import (
	"sync"
	"sync/atomic"
	"time"
)

// heldFlusher writes what connections held back in a burst (conn.hold)
// holdFor after the first was held, or sooner when no read worker has
// more input to handle: the burst's later messages to each connection go
// out in the same write, and a held message waits for nothing else (no
// store write, no further message). One goroutine for the process,
// parked while nothing is held.
//
// Why not holdFor alone: a timer under a millisecond fires up to a
// millisecond late when every P of the process is idle (the runtime's
// poller waits in whole milliseconds), so on a quiet replica a held
// relay waited ~1 ms: delivery p99 in realtimebench's steady phase 2.2-2.6
// → 3.2-3.5 ms. When the readers go idle, the burst is over anyway.
type heldFlusher struct {
	wake chan struct{} // one token: the list became non-empty
	idle chan struct{} // one token: the read workers have nothing more
	// early counts the flushes the readers' going idle started before
	// holdFor: what tests read.
	early atomic.Int64

	mu    sync.Mutex
	conns []*conn
}

// holdFor is how long a message may be held for its burst's next ones.
// At saturation a member's relays come in bursts of several within it
// (each member of the room sending its next update once acknowledged);
// at a steady pace a relay comes every ~100 ms and is written at once.
const holdFor = burstGap

var (
	flusherOnce sync.Once
	flusher     *heldFlusher
)

func sharedFlusher() *heldFlusher {
	flusherOnce.Do(func() {
		flusher = &heldFlusher{wake: make(chan struct{}, 1), idle: make(chan struct{}, 1)}
		go flusher.run()
	})
	return flusher
}

// add lists c, whose first held message since its last flush was just
// queued.
func (f *heldFlusher) add(c *conn) {
	f.mu.Lock()
	first := len(f.conns) == 0
	f.conns = append(f.conns, c)
	f.mu.Unlock()
	if first {
		select {
		case f.wake <- struct{}{}:
		default:
		}
	}
}

// readersIdle is called by the last read worker to finish: nothing of a
// burst is being handled any more, so what it held may go now. A token
// left while nothing was held ends the next hold at once: at most one
// early flush per idle spell, which is what an idle replica wants.
func (f *heldFlusher) readersIdle() {
	select {
	case f.idle <- struct{}{}:
	default:
	}
}

func (f *heldFlusher) run() {
	var listed []*conn
	t := time.NewTimer(holdFor)
	t.Stop()
	for range f.wake {
		t.Reset(holdFor)
		select {
		case <-t.C:
		case <-f.idle:
			t.Stop()
			f.early.Add(1)
		}
		f.mu.Lock()
		listed, f.conns = f.conns, listed[:0]
		f.mu.Unlock()
		for i, c := range listed {
			c.mu.Lock()
			c.listed = false
			if c.ridesWithAck() {
				c.mu.Unlock() // the commit release writes them
			} else {
				c.flushHeldLocked() // non-blocking: a slow client holds up no other
			}
			listed[i] = nil
		}
	}
}

// hold queues b as send does, except that in a burst (see quiet) it
// waits up to holdFor in the queue instead of starting the writer
// goroutine, for the burst's next messages: the held messages go out in
// one write, by the held-message flusher or with an acknowledgement
// (ackSettled). Written one by one, a saturated room's relays cost a
// write each and a writer goroutine started per burst.
func (c *conn) hold(b []byte) { c.enqueue(b, true) }

// flushHeldLocked writes the queued messages with one non-blocking
// system call from the calling goroutine (the flusher; the committer's
// release, under no lock that a slow client could hold up) and releases
// c.mu; what the socket does not take goes to the writer goroutine.
// Nothing to do while a writer runs: it takes the queue.
func (c *conn) flushHeldLocked() {
	if c.writing || c.closing || len(c.queue) == 0 || c.raw == nil {
		c.mu.Unlock()
		return
	}
	c.writing = true
	c.wroteAt = nanotime()
	batch := c.queue
	c.queue, c.spare = c.spare, nil
	c.mu.Unlock()
	taken, all := c.out.writeNow(c.raw, batch, c.settings.WriteTimeout)
	c.mu.Lock()
	if taken {
		for _, b := range batch {
			c.queued -= len(b)
		}
		c.keepSpare(batch)
	} else if !c.closing {
		c.queue = append(batch, c.queue...)
	}
	c.endDirect(all)
}
