package realtime

import "sync"

// member is one client's session on one document: a y-websocket
// connection, or one document of a Hocuspocus socket.
type member struct {
	c      *conn
	framer framer
	room   *room
	key    DocKey
	author Author

	mu    sync.Mutex
	grant Grant
	// closed is set once the member left its room; later sends are dropped.
	closed bool

	// clients are the awareness client ids this member speaks for (room
	// lock), removed for everybody when it leaves.
	clients map[uint64]struct{}

	// onEnd is called once when the member is removed (revoked access,
	// broken room): the protocol handler decides what the socket sees.
	onEnd func(m *member, code int, reason string)
	ended sync.Once
}

// role is the member's current role (a re-check may lower it).
func (m *member) role() Role {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.grant.Role
}

func (m *member) setGrant(g Grant) {
	m.mu.Lock()
	m.grant = g
	m.mu.Unlock()
}

func (m *member) currentGrant() Grant {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.grant
}

// send queues b unless the member is gone.
func (m *member) send(b []byte) { m.deliver(b, false) }

// hold queues b to go out with the burst it comes in (conn.hold).
func (m *member) hold(b []byte) { m.deliver(b, true) }

func (m *member) deliver(b []byte, held bool) {
	if b == nil {
		return
	}
	m.mu.Lock()
	closed := m.closed
	m.mu.Unlock()
	switch {
	case closed:
	case held:
		m.c.hold(b)
	default:
		m.c.send(b)
	}
}

// ack tells a Hocuspocus client whether its update was saved.
func (m *member) ack(saved bool) { m.send(m.framer.syncStatus(saved)) }

// end removes the member from its room and lets the protocol close what
// it must; only the first call counts.
func (m *member) end(code int, reason string) {
	m.ended.Do(func() {
		if m.room != nil {
			m.room.leave(m)
		}
		m.mu.Lock()
		m.closed = true
		m.mu.Unlock()
		if m.onEnd != nil {
			m.onEnd(m, code, reason)
		}
	})
}
