package main

import (
	"encoding/binary"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// Hocuspocus message types the load clients use.
const (
	hpSync       = 0
	hpAuth       = 2
	hpSyncStatus = 8
)

// client is one Hocuspocus connection editing one document.
type client struct {
	run    *run
	ws     *websocket.Conn
	name   string
	id     uint64 // Yjs client id
	clock  uint64
	wmu    sync.Mutex
	synced chan struct{}
	acks   chan struct{}
	once   sync.Once
}

// run is what all clients of one target share: send times and samples.
type run struct {
	mu        sync.Mutex
	sent      map[[2]uint64]time.Time // (client, clock end) → send time
	latencies []time.Duration
	measure   atomic.Bool
	acked     atomic.Int64
	errors    atomic.Int64
}

func newRun() *run { return &run{sent: map[[2]uint64]time.Time{}} }

func dial(r *run, url, name, token string, id uint64) (*client, error) {
	d := websocket.Dialer{HandshakeTimeout: 30 * time.Second}
	ws, _, err := d.Dial(url, nil)
	if err != nil {
		return nil, err
	}
	c := &client{run: r, ws: ws, name: name, id: id, synced: make(chan struct{}), acks: make(chan struct{}, 1024)}
	go c.read()
	auth := c.header(hpAuth)
	auth = putUvarint(auth, 0)
	auth = putString(auth, token)
	auth = putString(auth, "4.8.0")
	step1 := c.header(hpSync)
	step1 = putUvarint(step1, 0)
	step1 = putUvarint(step1, 1) // the empty state vector: one byte, 0
	step1 = append(step1, 0)
	if err := c.write(auth); err != nil {
		return nil, err
	}
	return c, c.write(step1)
}

func (c *client) header(typ uint64) []byte {
	b := putString(make([]byte, 0, 64), c.name)
	return putUvarint(b, typ)
}

func (c *client) write(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_ = c.ws.SetWriteDeadline(time.Now().Add(30 * time.Second))
	return c.ws.WriteMessage(websocket.BinaryMessage, b)
}

// send appends one character run and records its send time.
func (c *client) send() error {
	s := fmt.Sprintf("%d ", c.clock%10)
	u := insertUpdate(c.id, c.clock, s)
	c.clock += uint64(len(s))
	m := c.header(hpSync)
	m = putUvarint(m, 2) // update
	m = putUvarint(m, uint64(len(u)))
	m = append(m, u...)
	if c.run.measure.Load() {
		c.run.mu.Lock()
		c.run.sent[[2]uint64{c.id, c.clock}] = time.Now()
		c.run.mu.Unlock()
	}
	return c.write(m)
}

func (c *client) read() {
	for {
		_, msg, err := c.ws.ReadMessage()
		if err != nil {
			return
		}
		c.receive(msg)
	}
}

func (c *client) receive(msg []byte) {
	r := reader{b: msg}
	name := r.str()
	typ := r.uvarint()
	if r.err != nil || !strings.HasPrefix(name, c.name) {
		return
	}
	switch typ {
	case hpSync:
		sub := r.uvarint()
		payload := r.str()
		switch sub {
		case 0: // the server asks for our state: we send it empty
			m := c.header(hpSync)
			m = putUvarint(m, 1)
			m = putUvarint(m, 2)
			_ = c.write(append(m, 0, 0))
		case 1:
			c.once.Do(func() { close(c.synced) })
		case 2:
			c.sample([]byte(payload))
		}
	case hpSyncStatus:
		if binary.AppendUvarint(nil, 1)[0] == r.b[0] {
			c.run.acked.Add(1)
			select {
			case c.acks <- struct{}{}:
			default:
			}
		}
	}
}

// sample records the delivery latency of a relayed update.
func (c *client) sample(u []byte) {
	if !c.run.measure.Load() {
		return
	}
	ends, err := updateEnds(u)
	if err != nil {
		c.run.errors.Add(1)
		return
	}
	now := time.Now()
	c.run.mu.Lock()
	for _, e := range ends {
		if t, ok := c.run.sent[e]; ok {
			c.run.latencies = append(c.run.latencies, now.Sub(t))
		}
	}
	c.run.mu.Unlock()
}

func (c *client) close() { _ = c.ws.Close() }
