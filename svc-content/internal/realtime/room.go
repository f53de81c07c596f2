package realtime

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// room is one document loaded on this replica with the members connected
// to it here. Its Yjs document holds the stored state plus what members
// sent since; a change is relayed to the members here at once and stored
// before it is acknowledged or fanned out (see committer).
type room struct {
	hub   *Hub
	key   DocKey
	ready chan struct{} // closed when the stored state is loaded
	err   error         // the load error, set before ready closes

	mu       sync.Mutex
	doc      *yjs.Doc
	captured [][]byte // updates the doc emitted during the current apply
	members  map[*member]struct{}
	aware    map[uint64]*awarenessState
	pending  []pendingUpdate
	queued   bool // in the committer's queue
	storing  int  // batches of this room being stored
	unstored int  // bytes received and not yet stored (pending and storing)
	// received and storedCount count members' updates applied and stored:
	// the document holds nothing unstored when they are equal.
	received, storedCount uint64
	// stored is closed (and replaced) when a batch of the room was
	// stored or the room failed: senders held back by maxUnstoredBytes
	// wait for it.
	stored    chan struct{}
	broken    bool
	seq       uint64            // sequence of this replica's fan-out updates
	remoteSeq map[string]uint64 // last fan-out sequence seen per replica
	linger    *time.Timer
	// relay frames the update being relayed (room lock): one per room,
	// not an allocation per update.
	relay outbound
	// mark is how far the room has read the store (load, catch-ups);
	// catchingUp runs its catch-ups one at a time.
	mark       Mark
	catchingUp sync.Mutex
}

func newRoom(h *Hub, key DocKey) *room {
	r := &room{
		hub: h, key: key, ready: make(chan struct{}),
		doc:     yjs.NewDoc(serverClientID),
		members: map[*member]struct{}{}, aware: map[uint64]*awarenessState{},
		remoteSeq: map[string]uint64{},
	}
	r.doc.OnUpdate(func(u []byte) { r.captured = append(r.captured, u) })
	return r
}

// serverClientID is the room document's own client id. The server never
// edits, so the id only has to be valid.
const serverClientID = 1

// load applies the stored state; members wait for it.
func (r *room) load(ctx context.Context) {
	defer close(r.ready)
	state, mark, err := r.hub.store.Load(ctx, r.key)
	if err != nil {
		r.err = fmt.Errorf("load document: %w", err)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.mark = mark
	if len(state) == 0 {
		return
	}
	if err := r.doc.ApplyUpdate(state); err != nil {
		r.err = fmt.Errorf("stored document does not decode: %w", err)
	}
}

// errRoomGone is a join that raced with the room's failure.
var errRoomGone = errors.New("the document was unloaded; reconnect")

// join adds m once the room is loaded. greet sends the server's sync step
// 1 first (y-websocket servers open with it); current awareness follows.
func (r *room) join(ctx context.Context, m *member, greet bool) error {
	select {
	case <-r.ready:
	case <-ctx.Done():
		return ctx.Err()
	}
	if r.err != nil {
		return r.err
	}
	r.mu.Lock()
	if r.broken {
		r.mu.Unlock()
		return errRoomGone
	}
	m.room = r
	r.members[m] = struct{}{}
	if r.linger != nil {
		r.linger.Stop()
		r.linger = nil
	}
	var step1 []byte
	if greet {
		step1 = m.framer.syncStep1(r.doc.StateVector())
	}
	aw := r.awarenessSnapshotLocked()
	r.mu.Unlock()
	m.send(step1)
	if aw != nil {
		m.send(m.framer.relay(aw))
	}
	return nil
}

// leave removes m and the awareness states it spoke for; an empty room
// lingers, then unloads.
func (r *room) leave(m *member) {
	r.mu.Lock()
	if _, ok := r.members[m]; !ok {
		r.mu.Unlock()
		return
	}
	delete(r.members, m)
	gone := r.dropClientsLocked(m)
	if len(r.members) == 0 && !r.broken {
		r.linger = time.AfterFunc(r.hub.settings.RoomLinger, func() { r.hub.unloadIfIdle(r) })
	}
	r.mu.Unlock()
	if gone != nil {
		r.hub.publishAwareness(r, gone)
	}
}

// idle reports whether nothing holds the room (hub lock held).
func (r *room) idle() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.members) == 0 && r.committedLocked()
}

// committedLocked reports whether nothing of the room waits to be stored.
func (r *room) committedLocked() bool {
	return !r.queued && r.storing == 0 && len(r.pending) == 0
}

// stateVector is the room document's state vector.
func (r *room) stateVector() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.doc.StateVector()
}

// broadcastLocked sends o to every member but except.
func (r *room) broadcastLocked(o *outbound, except *member) {
	r.deliverLocked(o, except, false)
}

// deliverLocked sends (held: holds, see member.hold) o to every member
// but except.
func (r *room) deliverLocked(o *outbound, except *member, held bool) {
	for m := range r.members {
		if m != except {
			m.deliver(m.framer.relay(o), held)
		}
	}
}

// relayLocked sends the update u to every member but except, framed
// once per protocol; in a burst it waits a moment (member.hold), to go
// out with the burst's other relays.
func (r *room) relayLocked(u []byte, except *member) {
	r.relay = outbound{body: u}
	r.deliverLocked(&r.relay, except, true)
	r.relay = outbound{} // the frames belong to the queues now
}

// fail unloads a room whose state can no longer be trusted (a store
// failure after the update was applied): every member is disconnected and
// reconnecting clients resend what was not stored.
func (r *room) fail(err error) {
	r.mu.Lock()
	r.broken = true
	unstored := r.pending
	r.pending = nil
	r.signalStoredLocked()
	members := make([]*member, 0, len(r.members))
	for m := range r.members {
		members = append(members, m)
	}
	r.mu.Unlock()
	settleAcks(unstored)
	r.hub.logger.Error("realtime: document failed; its sessions are closed", "error", err)
	r.hub.forget(r)
	for _, m := range members {
		m.end(CloseInternal, "the document could not be saved; reconnect")
	}
}

// idleCommit reports whether nothing of the room waits to be stored.
func (r *room) idleCommit() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.committedLocked()
}

// loadFailed reports whether the room could not be loaded; the next client
// gets a fresh attempt.
func (r *room) loadFailed() bool {
	select {
	case <-r.ready:
		return r.err != nil
	default:
		return false
	}
}
