package main

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Hocuspocus message types the load clients use.
const (
	hpSync       = 0
	hpAuth       = 2
	hpSyncStatus = 8
)

// idBase is the Yjs client id of the first load client: a relayed update's
// client id - idBase is its sender's index in run.clients.
const idBase = 100000

// client is one Hocuspocus connection editing one document. The run's
// poller reads it (readable); sends come from the phase's sender or,
// saturated, from the poller once the previous update is acknowledged.
type client struct {
	run    *run
	fd     int // the socket, non-blocking; -1 once closed
	fr     *frameReader
	name   []byte // the document's name
	id     uint64 // Yjs client id
	synced chan struct{}

	wmu      sync.Mutex // guards what follows up to unacked: the writing side
	clock    uint64
	msg, upd []byte // scratch of the next message and its update
	frame    []byte // scratch of the next frame
	key      uint32
	deadline time.Time // of writes, moved forward at most once a second

	awareClock uint64       // the awareness state's clock (c.wmu)
	lastWrite  atomic.Int64 // when the client last wrote, since run.epoch

	unacked atomic.Int64 // updates sent and not yet acknowledged
	sends   sendLog      // steady phase: when each update was sent

	ends     [][2]uint64 // the reader's scratch
	isSynced bool        // the reader's: synced was closed
	lmu      sync.Mutex
	lat      []time.Duration // delivery latencies of what this client received
}

// run is what all clients of one target share.
type run struct {
	epoch      time.Time // send times are kept as the time since (monotonic)
	poller     *poller
	mu         sync.Mutex
	dialed     []*client // to close at the end, synced or not
	clients    []*client // by index; set before measuring
	measure    atomic.Bool
	saturating atomic.Bool
	acked      atomic.Int64
	errors     atomic.Int64 // updates that could not be read
	lost       atomic.Int64 // connections that ended while in use
	closing    atomic.Bool
	stopped    chan struct{} // closed by stop: ends keepAware
}

// newRun starts the loops that will read up to clients connections.
func newRun(clients, loops int) (*run, error) {
	p, err := newPoller(clients, loops)
	if err != nil {
		return nil, err
	}
	return &run{epoch: time.Now(), poller: p, stopped: make(chan struct{})}, nil
}

// stop stops reading the clients and closes them.
func (r *run) stop() {
	if r.closing.Swap(true) {
		return
	}
	close(r.stopped)
	r.poller.close()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.dialed {
		c.close()
	}
}

func dial(r *run, url, name, token string, idx int) (*client, error) {
	conn, fr, err := dialWS(url, 30*time.Second)
	if err != nil {
		return nil, err
	}
	fd, err := socketOf(conn)
	if err != nil {
		return nil, err
	}
	fr.src = fdReader{fd}
	c := &client{run: r, fd: fd, fr: fr, name: []byte(name), id: uint64(idBase + idx),
		synced: make(chan struct{}), key: rand.Uint32()}
	r.mu.Lock()
	r.dialed = append(r.dialed, c)
	r.mu.Unlock()
	if err := r.poller.add(c, idx); err != nil {
		return nil, err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	auth := c.header(hpAuth)
	auth = putUvarint(auth, 0)
	auth = putString(auth, token)
	auth = putString(auth, "4.8.0")
	if err := c.writeMsg(auth); err != nil {
		return nil, err
	}
	step1 := c.header(hpSync)
	step1 = putUvarint(step1, 0)
	step1 = putUvarint(step1, 1) // the empty state vector: one byte, 0
	step1 = append(step1, 0)
	return c, c.writeMsg(step1)
}

// header starts a message in c.msg; c.wmu held.
func (c *client) header(typ uint64) []byte {
	b := putUvarint(c.msg[:0], uint64(len(c.name)))
	b = append(b, c.name...)
	return putUvarint(b, typ)
}

// writeMsg writes m, built from c.header; c.wmu held.
func (c *client) writeMsg(m []byte) error {
	c.msg = m[:0] // keep the grown scratch
	return c.writeLocked(opBinary, m)
}

// writeLocked writes one frame; c.wmu held.
func (c *client) writeLocked(op byte, payload []byte) error {
	if c.fd < 0 {
		return net.ErrClosed
	}
	c.frame = appendFrame(c.frame[:0], op, payload, c.key)
	c.lastWrite.Store(int64(time.Since(c.run.epoch)))
	return writeAll(c.fd, c.frame)
}

func (c *client) write(op byte, payload []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.writeLocked(op, payload)
}

// send appends one character run ("<digit> ") and, while measuring,
// records its send time.
func (c *client) send() error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	s := [2]byte{'0' + byte(c.clock%10), ' '}
	m := c.header(hpSync)
	m = putUvarint(m, 2) // update
	c.upd = appendInsertUpdate(c.upd[:0], c.id, c.clock, s[:])
	m = putUvarint(m, uint64(len(c.upd)))
	m = append(m, c.upd...)
	c.clock += uint64(len(s))
	if c.run.measure.Load() {
		c.sends.record(c.clock, time.Since(c.run.epoch))
	}
	c.unacked.Add(1)
	return c.writeMsg(m)
}

// readable reads what the socket holds (one system call) and handles each
// complete frame; false once the connection is over.
func (c *client) readable() bool {
	if err := c.fr.fill(); err != nil {
		if errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EINTR) {
			return true
		}
		c.ended()
		return false
	}
	for {
		op, payload, ok, err := c.fr.take()
		switch {
		case err != nil:
			c.ended()
			return false
		case !ok:
			return true
		}
		switch op {
		case opBinary:
			c.receive(payload)
		case opPing:
			_ = c.write(opPong, payload)
		case opClose:
			c.ended()
			return false
		}
	}
}

// ended counts a connection the server ended while the clients used it.
func (c *client) ended() {
	if !c.run.closing.Load() {
		c.run.lost.Add(1)
	}
}

func (c *client) receive(msg []byte) {
	r := reader{b: msg}
	name := r.bytes()
	typ := r.uvarint()
	if r.err != nil || !bytes.HasPrefix(name, c.name) {
		return
	}
	switch typ {
	case hpSync:
		sub := r.uvarint()
		payload := r.bytes()
		switch sub {
		case 0: // the server asks for our state: we send it empty
			c.wmu.Lock()
			m := c.header(hpSync)
			m = putUvarint(m, 1)
			m = putUvarint(m, 2)
			_ = c.writeMsg(append(m, 0, 0))
			c.wmu.Unlock()
		case 1:
			if !c.isSynced {
				c.isSynced = true
				close(c.synced)
			}
		case 2:
			c.sample(payload)
		}
	case hpSyncStatus:
		if len(r.b) > 0 && r.b[0] == 1 {
			c.acknowledged()
		}
	}
}

// acknowledged counts an acknowledgement; saturated, it sends the next
// update once every update sent was acknowledged.
func (c *client) acknowledged() {
	c.run.acked.Add(1)
	if c.unacked.Add(-1) <= 0 && c.run.saturating.Load() {
		if err := c.send(); err != nil && !errors.Is(err, net.ErrClosed) {
			c.run.lost.Add(1)
		}
	}
}

// sample records the delivery latency of a relayed update.
func (c *client) sample(u []byte) {
	if !c.run.measure.Load() {
		return
	}
	var err error
	c.ends, err = appendUpdateEnds(c.ends[:0], u)
	if err != nil {
		c.run.errors.Add(1)
		return
	}
	now := time.Since(c.run.epoch)
	c.lmu.Lock()
	defer c.lmu.Unlock()
	for _, e := range c.ends {
		if at, ok := c.run.sentAt(e[0], e[1]); ok {
			c.lat = append(c.lat, now-at)
		}
	}
}

// sentAt is when the update by client id ending at clock was sent, if
// that send was recorded.
func (r *run) sentAt(id, clock uint64) (time.Duration, bool) {
	i := id - idBase
	if id < idBase || i >= uint64(len(r.clients)) || r.clients[i] == nil {
		return 0, false
	}
	return r.clients[i].sends.at(clock)
}

// latencies takes the latencies the client recorded.
func (c *client) latencies() []time.Duration {
	c.lmu.Lock()
	defer c.lmu.Unlock()
	l := c.lat
	c.lat = nil
	return l
}

func (c *client) close() {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.fd >= 0 {
		syscall.Close(c.fd)
		c.fd = -1
	}
}
