package realtime

import (
	"errors"
	"io"
	"net"
	"sync"
	"syscall"
	"time"
)

// reading is a connection's read side: frames are read when the socket
// is readable, by a goroutine started for that (see readPoller), so an
// idle connection has no goroutine and no buffer. Where the socket cannot
// be polled, one goroutine reads it, blocked in Read.
type reading struct {
	fr     frameReader
	handle func(msg []byte) // one binary message; valid during the call
	end    func()           // once, when reading ended
	raw    syscall.RawConn  // the polled socket; nil when a goroutine reads
	fd     int

	mu     sync.Mutex
	active bool // a goroutine reads now
	again  bool // reported readable while active: read once more
	stop   bool // the connection is being closed: reading ends
	ended  bool // reading is over (end runs or ran)
}

// serveReads reads c's messages until the connection ends: handle gets
// each binary message in order, one at a time (its slice is its own); end
// runs once afterwards. Reading stops while handle runs, which holds a
// sender back (back-pressure).
func (c *conn) serveReads(handle func(msg []byte), end func()) {
	c.rd.fr.limit = c.settings.MaxMessageBytes
	c.rd.handle, c.rd.end = handle, end
	if !c.readEarly() {
		c.endReads()
		return
	}
	if sc, ok := c.netConn().(syscall.Conn); ok && pollReads(c, sc) {
		return
	}
	go c.readBlocking()
}

// readEarly handles the frames the client sent before the upgrade was
// answered (see batchHijacker); false ends reading.
func (c *conn) readEarly() bool {
	if c.out == nil || c.out.early == nil {
		return true
	}
	early := c.out.early
	c.out.early = nil
	return c.consume(early, nil)
}

// netConn is the socket under the WebSocket.
func (c *conn) netConn() net.Conn { return c.out.Conn }

// readBlocking reads on a goroutine of its own (no poller).
func (c *conn) readBlocking() {
	for {
		buf, pooled := c.rd.fr.buffer()
		n, err := c.netConn().Read(buf[len(buf):cap(buf)])
		if !c.consume(buf[:len(buf)+n], pooled) || err != nil {
			c.endReads()
			return
		}
	}
}

// readReady reads what a polled socket has, then waits for the poller
// again; a read worker runs it per readiness.
func (c *conn) readReady() {
	if !c.rd.begin() {
		return
	}
	for {
		buf, pooled := c.rd.fr.buffer()
		room := cap(buf) - len(buf)
		n, err := readSome(c.rd.raw, buf[len(buf):cap(buf)])
		if errors.Is(err, syscall.EAGAIN) {
			c.rd.fr.keep(buf, pooled)
			if !c.waitReadable() {
				return
			}
			continue
		}
		if err != nil || n == 0 || !c.consume(buf[:len(buf)+n], pooled) {
			c.endReads()
			return
		}
		// A read that did not fill the buffer drained the socket: the
		// next read would only say so (EAGAIN), a system call per
		// message. Bytes that come later are reported by the poller.
		if n < room && !c.waitReadable() {
			return
		}
	}
}

// waitReadable leaves a drained socket to the poller (false); true when
// it was reported readable meanwhile and is read again. The poller
// reports a socket each time bytes come (edge-triggered), so it stays in
// the set without a system call per message to re-arm it. Reading ends
// here when the connection closes.
func (c *conn) waitReadable() bool {
	switch c.rd.park() {
	case readAgain:
		return true
	case readParked:
		return false
	}
	c.endReads()
	return false
}

// consume handles the complete frames of buf and keeps the rest; false
// ends reading.
func (c *conn) consume(buf []byte, pooled *[]byte) bool {
	done, err := c.rd.fr.parse(buf, c.frame)
	if err != nil {
		if pooled != nil {
			readBufs.Put(pooled)
		}
		var fe *frameError
		if errors.As(err, &fe) {
			c.closeNow(fe.code, fe.reason)
		}
		return false
	}
	c.rd.fr.keep(buf[done:], pooled)
	return !c.rd.stopping()
}

// errClosed ends reading at the client's close frame.
var errClosed = io.EOF

// frame handles one control frame or whole message of the client; any
// frame counts as a sign of life.
func (c *conn) frame(op byte, payload []byte) error {
	c.pongSeen.Store(true)
	switch op {
	case opBinary:
		c.rd.handle(append([]byte(nil), payload...))
	case opPing:
		_ = c.out.writeControl(opPong, payload, time.Now().Add(c.settings.WriteTimeout))
	case opClose:
		c.answerClose(payload)
		return errClosed
	}
	// Text frames are not part of either protocol; pongs only show life.
	return nil
}

// answerClose echoes the client's close frame (unless the server's own
// went first), as the WebSocket library did.
func (c *conn) answerClose(payload []byte) {
	c.mu.Lock()
	answered := c.closing
	c.closing = true
	c.queue, c.queued = nil, 0
	c.mu.Unlock()
	if answered {
		return
	}
	echo := []byte{}
	if len(payload) >= 2 {
		echo = payload[:2]
	}
	_ = c.out.writeControl(opClose, echo, time.Now().Add(c.settings.WriteTimeout))
}

// stopReads ends reading as the connection closes: at once when no read
// runs (the socket leaves the poller before it is closed, so its number
// is free for the next), else when the running one returns.
func (c *conn) stopReads() {
	c.rd.mu.Lock()
	c.rd.stop = true
	idle := c.rd.raw != nil && c.rd.handle != nil && !c.rd.active && !c.rd.ended
	if idle {
		c.rd.ended = true
	}
	c.rd.mu.Unlock()
	if idle {
		unpoll(c)
		go c.rd.end()
	}
}

// endReads ends reading from the goroutine that reads.
func (c *conn) endReads() {
	c.rd.mu.Lock()
	already := c.rd.ended
	c.rd.ended, c.rd.active = true, false
	c.rd.mu.Unlock()
	if already {
		return
	}
	if c.rd.raw != nil {
		unpoll(c)
	}
	c.rd.end()
}

// begin claims the read side for one goroutine; false when another reads
// (it reads again before it parks) or reading is over.
func (r *reading) begin() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ended {
		return false
	}
	if r.active {
		r.again = true
		return false
	}
	r.active = true
	return true
}

// What park tells the reading goroutine.
const (
	readParked = iota // the socket is left to the poller
	readAgain         // it was reported readable meanwhile: read again
	readStop          // the connection closes: reading ends
)

// park releases the read side when the socket has nothing more, unless
// it was reported readable meanwhile or reading must end.
func (r *reading) park() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.stop:
		return readStop
	case r.again:
		r.again = false
		return readAgain
	}
	r.active = false
	return readParked
}

func (r *reading) stopping() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stop
}
