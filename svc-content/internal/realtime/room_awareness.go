package realtime

import (
	"time"

	"github.com/opencollab/backend/svc-content/internal/realtime/yproto"
)

// awarenessState is the last known awareness entry of one client, as
// y-protocols' Awareness keeps it (state, clock, last update).
type awarenessState struct {
	clock   uint64
	state   string
	owner   *member // nil: a client of another replica
	updated time.Time
}

// awarenessTimeout is y-protocols' outdatedTimeout: a state not renewed
// for this long is dropped (clients renew every 15 s).
const awarenessTimeout = 30 * time.Second

// handleAwareness applies an awareness update of m and relays the entries
// it accepted to every member, m included (clients count the echo of their
// own renewals as a sign of life), and to the other replicas.
func (r *room) handleAwareness(m *member, update []byte) error {
	entries, err := yproto.DecodeAwareness(update)
	if err != nil {
		return err
	}
	r.mu.Lock()
	accepted := r.applyAwarenessLocked(entries, m)
	var o *outbound
	if len(accepted) > 0 {
		o = &outbound{awareness: true, body: encodeAccepted(update, entries, accepted)}
		r.broadcastLocked(o, nil)
	}
	r.mu.Unlock()
	if o != nil {
		r.hub.publishAwareness(r, o.body)
	}
	return nil
}

// encodeAccepted re-encodes only when some entries were refused.
func encodeAccepted(raw []byte, all, accepted []yproto.AwarenessEntry) []byte {
	if len(all) == len(accepted) {
		return raw
	}
	return yproto.EncodeAwareness(accepted)
}

// applyAwarenessLocked keeps the entries that are newer than what the room
// knows (awareness.js applyAwarenessUpdate): a higher clock, or the same
// clock removing a state. owner is nil for another replica's clients.
func (r *room) applyAwarenessLocked(entries []yproto.AwarenessEntry, owner *member) []yproto.AwarenessEntry {
	now := time.Now()
	accepted := entries[:0:0]
	for _, e := range entries {
		cur, known := r.aware[e.ClientID]
		newer := !known || cur.clock < e.Clock || (cur.clock == e.Clock && e.Removed() && cur.state != yproto.NullState)
		if !newer {
			continue
		}
		accepted = append(accepted, e)
		if e.Removed() {
			delete(r.aware, e.ClientID)
			if known && cur.owner != nil {
				delete(cur.owner.clients, e.ClientID)
			}
			continue
		}
		r.aware[e.ClientID] = &awarenessState{clock: e.Clock, state: e.State, owner: owner, updated: now}
		if owner != nil {
			if owner.clients == nil {
				owner.clients = map[uint64]struct{}{}
			}
			owner.clients[e.ClientID] = struct{}{}
		}
	}
	return accepted
}

// applyRemoteAwareness applies another replica's awareness update and
// relays what it accepted to the members here.
func (r *room) applyRemoteAwareness(update []byte) {
	entries, err := yproto.DecodeAwareness(update)
	if err != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if accepted := r.applyAwarenessLocked(entries, nil); len(accepted) > 0 {
		r.broadcastLocked(&outbound{awareness: true, body: encodeAccepted(update, entries, accepted)}, nil)
	}
}

// awarenessSnapshotLocked is every known state as one update (nil: none),
// what a joining client and a query-awareness get.
func (r *room) awarenessSnapshotLocked() *outbound {
	if len(r.aware) == 0 {
		return nil
	}
	entries := make([]yproto.AwarenessEntry, 0, len(r.aware))
	for id, s := range r.aware {
		entries = append(entries, yproto.AwarenessEntry{ClientID: id, Clock: s.clock, State: s.state})
	}
	return &outbound{awareness: true, body: yproto.EncodeAwareness(entries)}
}

// queryAwareness answers m's query with every known state.
func (r *room) queryAwareness(m *member) {
	r.mu.Lock()
	o := r.awarenessSnapshotLocked()
	r.mu.Unlock()
	if o != nil {
		m.send(m.framer.relay(o))
	}
}

// dropClientsLocked removes the states m spoke for and tells the members
// left; it returns the removal update for the other replicas (nil: none).
func (r *room) dropClientsLocked(m *member) []byte {
	if len(m.clients) == 0 {
		return nil
	}
	entries := make([]yproto.AwarenessEntry, 0, len(m.clients))
	for id := range m.clients {
		if s, ok := r.aware[id]; ok && s.owner == m {
			entries = append(entries, yproto.AwarenessEntry{ClientID: id, Clock: s.clock, State: yproto.NullState})
			delete(r.aware, id)
		}
	}
	m.clients = nil
	if len(entries) == 0 {
		return nil
	}
	o := &outbound{awareness: true, body: yproto.EncodeAwareness(entries)}
	r.broadcastLocked(o, nil)
	return o.body
}

// expireAwareness drops states not renewed within awarenessTimeout
// (clients that vanished with their replica); clients time them out on
// their own, so nothing is sent.
func (r *room) expireAwareness(now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, s := range r.aware {
		if now.Sub(s.updated) > awarenessTimeout {
			delete(r.aware, id)
			if s.owner != nil {
				delete(s.owner.clients, id)
			}
		}
	}
}

// relayStateless passes a Hocuspocus stateless payload to the members
// here but except (y-websocket members have no such message).
func (r *room) relayStateless(payload string, except *member) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for m := range r.members {
		if m != except {
			m.send(m.framer.stateless(payload))
		}
	}
}
