package realtime

import (
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gorilla/websocket"
)

// conn is one client WebSocket with a bounded send queue. Messages are
// written by a goroutine that runs only while the queue is non-empty, and
// read when the socket is readable (see reading), so an idle connection
// costs no goroutine. A client that
// lets more than SendQueueBytes pile up, or does not take a write within
// WriteTimeout, is disconnected: nothing is ever buffered without bound.
type conn struct {
	out *batchConn // the client's socket; the WebSocket handshake is done
	// raw is out's descriptor for writes that do not wait (nil: every
	// message goes through the writer goroutine).
	raw      syscall.RawConn
	settings *Settings
	origin   string // the upgrade's Origin header ("" from non-browsers)

	mu      sync.Mutex
	queue   [][]byte
	spare   [][]byte // the previous flush's batch, emptied: the next queue
	queued  int      // bytes in queue and in the write under way
	writing bool     // a flush goroutine runs
	flushes int      // flush goroutines started (tests count them)
	// wroteAt is when sendNow last wrote (monotonic nanoseconds): a
	// message soon after is part of a burst, gathered by the writer.
	wroteAt int64
	listed  bool // in the held-message flusher's list
	// acksDue counts this socket's updates that await their
	// acknowledgement at a commit release (see ackride.go).
	acksDue int
	// acksDueFrom is when acksDue last rose from 0 (monotonic
	// nanoseconds): how long this socket has awaited acknowledgements.
	acksDueFrom int64
	closing     bool // no more sends; the close frame follows the queue
	code        int
	reason      string

	// ackedAt is when acksDue last fell to 0 (monotonic nanoseconds; 0:
	// never) and ackWait how long it had been above; backToBack: the
	// update awaited (or last acknowledged) came within ackWait after
	// ackedAt; expectUntil: until when relays held for c wait for its
	// next update, which expectTimer ends (0: no wait; see ackexpect.go).
	ackedAt, ackWait, expectUntil int64
	backToBack                    bool
	expectTimer                   *time.Timer

	rd reading

	pongSeen atomic.Bool // a pong (or any message) since the last ping
	doneOnce sync.Once
}

func newConn(out *batchConn, s *Settings) *conn {
	c := &conn{out: out, settings: s}
	if sc, ok := out.Conn.(syscall.Conn); ok {
		c.raw, _ = sc.SyscallConn()
	}
	c.pongSeen.Store(true)
	return c
}

// send queues b. A message larger than the whole bound still goes out
// when the queue is empty; otherwise a full queue disconnects the client.
func (c *conn) send(b []byte) { c.enqueue(b, false) }

func (c *conn) enqueue(b []byte, held bool) {
	c.mu.Lock()
	if c.closing {
		c.mu.Unlock()
		return
	}
	if c.queued > 0 && c.queued+len(b) > c.settings.SendQueueBytes {
		c.mu.Unlock()
		// Not inline: the caller may hold a room lock, and the close
		// frame's write may wait for WriteTimeout.
		go c.closeNow(ClosePolicy, "client too slow: its send queue exceeded the limit")
		return
	}
	// Held messages go first: a direct write must not pass them.
	if !c.writing && len(c.queue) == 0 && c.raw != nil && len(b) < batchFlushAt && !(held && c.waitsForAck()) && c.quiet() {
		c.writing = true // this goroutine writes now
		c.mu.Unlock()
		c.sendNow(b)
		return
	}
	c.queue = append(c.queue, b)
	c.queued += len(b)
	if c.writing {
		c.mu.Unlock()
		return
	}
	if !held || c.raw == nil { // no direct write without raw
		c.startWriter()
		c.mu.Unlock()
		return
	}
	// Riding with an acknowledgement, it waits for the commit release:
	// listing it would only wake the flusher.
	list := !c.listed && !c.ridesWithAck()
	c.listed = c.listed || list
	c.mu.Unlock()
	if list {
		sharedFlusher().add(c)
	}
}

// startWriter starts the writer goroutine (c.mu held).
func (c *conn) startWriter() {
	c.writing = true
	c.flushes++
	go c.flush()
}

// flush writes the queue until it is empty, then sends the close frame if
// a close was asked for meanwhile.
func (c *conn) flush() {
	for {
		c.mu.Lock()
		batch := c.queue
		c.queue, c.spare = c.spare, nil
		if len(batch) == 0 {
			if c.out != nil && c.out.gathering() {
				// The rest of a frame sendNow began, and what was
				// written behind it.
				c.mu.Unlock()
				if err := c.flushGathered(); err != nil {
					c.abort()
					return
				}
				continue
			}
			c.doneWriting()
			return
		}
		c.mu.Unlock()
		n := 0
		for _, b := range batch {
			if err := c.write(b); err != nil {
				c.abort()
				return
			}
			n += len(b)
		}
		if err := c.flushGathered(); err != nil {
			c.abort()
			return
		}
		c.mu.Lock()
		c.queued -= n
		c.keepSpare(batch)
		c.mu.Unlock()
	}
}

// doneWriting ends a write turn with nothing left to write (c.mu held;
// released): the close frame asked for meanwhile goes out now.
func (c *conn) doneWriting() {
	c.writing = false
	closing, code, reason := c.closing, c.code, c.reason
	c.mu.Unlock()
	if closing {
		c.sendClose(code, reason)
	}
}

// keepSpare keeps a written batch's slice for the next queue (c.mu held).
func (c *conn) keepSpare(batch [][]byte) {
	clear(batch) // the messages are shared with other members: drop the references
	if c.spare == nil && cap(batch) <= maxSpareQueue {
		c.spare = batch[:0]
	}
}

// maxSpareQueue bounds the queue slice kept for reuse, so one burst does
// not pin a large array per connection.
const maxSpareQueue = 8

// write frames b; the frames of one flush go out in as few system calls
// as batchFlushAt allows. Data frames are framed here rather than by the
// WebSocket library, whose every message allocates (its pooled write
// buffer goes back boxed) and copies the payload once more: b, shared by
// every member it is relayed to, is copied once, into the gathered bytes.
func (c *conn) write(b []byte) error {
	deadline := time.Now().Add(c.settings.WriteTimeout)
	if len(b) >= batchFlushAt {
		// A large message goes out on its own, not copied.
		if err := c.out.flush(deadline); err != nil {
			return err
		}
		return c.out.writeFrame(b, deadline)
	}
	if c.out.gatherFrame(b) >= batchFlushAt {
		return c.out.flush(deadline)
	}
	return nil
}

// flushGathered writes the frames gathered by write.
func (c *conn) flushGathered() error {
	if c.out == nil {
		return nil
	}
	return c.out.flush(time.Now().Add(c.settings.WriteTimeout))
}

// close ends the connection after what is queued has been written
// (graceful: shutdown, a client that asked to close).
func (c *conn) close(code int, reason string) {
	c.mu.Lock()
	if c.closing {
		c.mu.Unlock()
		return
	}
	c.closing, c.code, c.reason = true, code, closeReason(reason)
	idle := !c.writing
	if idle && len(c.queue) > 0 { // held messages: the writer sends the close frame after them
		c.startWriter()
		idle = false
	}
	c.mu.Unlock()
	if idle {
		c.sendClose(code, c.reason)
	}
}

// closeNow drops what is queued and ends the connection (refused or
// revoked access, a slow client).
func (c *conn) closeNow(code int, reason string) {
	c.mu.Lock()
	if c.closing {
		c.mu.Unlock()
		return
	}
	c.closing, c.code, c.reason = true, code, closeReason(reason)
	c.queue, c.queued = nil, 0
	c.mu.Unlock()
	c.sendClose(code, c.reason)
}

// sendClose writes the close frame and gives the client a moment to answer
// before the connection is cut off.
func (c *conn) sendClose(code int, reason string) {
	deadline := time.Now().Add(c.settings.WriteTimeout)
	if err := c.out.writeControl(opClose, websocket.FormatCloseMessage(code, reason), deadline); err != nil {
		c.abort()
		return
	}
	time.AfterFunc(closeGrace, c.abort)
}

// closeGrace is how long a client has to answer a close frame.
const closeGrace = 2 * time.Second

// abort closes the socket at once (a dead or stuck peer).
func (c *conn) abort() {
	c.mu.Lock()
	c.closing = true
	c.queue, c.queued = nil, 0
	c.mu.Unlock()
	c.stopReads()
	_ = c.out.Close()
}

// ping is called every PingInterval by the hub: a connection that showed
// no sign of life since the previous ping is dropped.
func (c *conn) ping() {
	if !c.pongSeen.Swap(false) {
		c.abort()
		return
	}
	_ = c.out.writeControl(opPing, nil, time.Now().Add(c.settings.WriteTimeout))
}

// finished marks the end of reading (the socket is closed by then).
func (c *conn) finished() { c.doneOnce.Do(c.abort) }

// epoch makes nanotime monotonic (time.Since reads the monotonic clock).
var epoch = time.Now()

func nanotime() int64 { return int64(time.Since(epoch)) }
