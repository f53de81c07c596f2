package realtime

import (
	"context"
	"fmt"
	"time"

	"github.com/opencollab/backend/svc-content/internal/realtime/yproto"
	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// pendingUpdate is an applied update waiting to be stored.
type pendingUpdate struct {
	update []byte
	from   *member
}

// storeTimeout bounds one store write; a store that takes longer fails the
// room rather than hold its members' acknowledgements forever.
const storeTimeout = 30 * time.Second

// handleSync runs one sync sub-message of m.
func (r *room) handleSync(m *member, s yproto.Sync) {
	switch s.Type {
	case yproto.SyncStep1:
		r.mu.Lock()
		diff, err := r.doc.EncodeStateAsUpdate(s.Payload)
		r.mu.Unlock()
		if err != nil {
			m.end(CloseBadRequest, "malformed state vector in sync step 1")
			return
		}
		m.send(m.framer.syncStep2(diff))
	default: // step 2 and update carry an update alike
		if m.role() != RoleEditor {
			m.ack(r.knows(s.Payload))
			return
		}
		r.receiveUpdate(m, s.Payload)
	}
}

// knows reports whether update brings no struct the room lacks (deletes
// are not compared): what a Hocuspocus server acknowledges for a
// read-only client.
func (r *room) knows(update []byte) bool {
	svBytes, err := yjs.EncodeStateVectorFromUpdate(update)
	if err != nil {
		return false
	}
	theirs, err := yjs.DecodeStateVector(svBytes)
	if err != nil {
		return false
	}
	r.mu.Lock()
	ours := r.doc.StateVectorMap()
	r.mu.Unlock()
	for client, clock := range theirs {
		if clock > ours[client] {
			return false
		}
	}
	return true
}

// maxUnstoredBytes bounds what a room holds that the store has not taken
// yet: past it, a sender's next message waits until a batch is stored, so
// a slow store slows the senders (their sockets stop being read) instead
// of filling memory.
const maxUnstoredBytes = 1 << 20

// receiveUpdate applies an editor's update, relays what it changed to the
// other members here at once (as y-websocket and Hocuspocus servers do)
// and queues it for storing; it is acknowledged to its sender and fanned
// out to other replicas once stored (see committer). An update that
// changes nothing is acknowledged at once.
func (r *room) receiveUpdate(m *member, update []byte) {
	r.mu.Lock()
	if r.broken {
		r.mu.Unlock()
		return
	}
	eff, err := r.applyLocked(update)
	if err != nil {
		r.mu.Unlock()
		m.end(CloseBadRequest, "malformed Yjs update")
		return
	}
	if eff == nil {
		r.mu.Unlock()
		m.ack(true)
		return
	}
	r.relayLocked(eff, m)
	r.pending = append(r.pending, pendingUpdate{update: eff, from: m})
	m.awaitAck()
	r.unstored += len(eff)
	r.received++
	enqueue := !r.queued
	r.queued = true
	r.mu.Unlock()
	if enqueue {
		r.hub.committer.enqueue(r)
	}
	r.waitStoredBelow(maxUnstoredBytes)
}

// waitStoredBelow holds the caller (a member's read loop) while the room's
// unstored bytes exceed limit.
func (r *room) waitStoredBelow(limit int) {
	r.waitForStore(context.Background(), limit, 0)
}

// waitForStore waits until at most maxUnstored bytes are unstored and the
// first minStored updates are stored (the committer signals each store);
// false when the room failed first (they may never be), ctx ended or the
// hub stopped. Two bounds rather than a condition func: the read loop calls
// it for every update and a closure would allocate.
func (r *room) waitForStore(ctx context.Context, maxUnstored int, minStored uint64) bool {
	for {
		r.mu.Lock()
		if r.broken {
			r.mu.Unlock()
			return false
		}
		if r.unstored <= maxUnstored && r.storedCount >= minStored {
			r.mu.Unlock()
			return true
		}
		if r.stored == nil {
			r.stored = make(chan struct{})
		}
		stored := r.stored
		r.mu.Unlock()
		select {
		case <-stored:
		case <-ctx.Done():
			return false
		case <-r.hub.ctx.Done():
			return false
		}
	}
}

// signalStoredLocked wakes the senders waiting in waitStoredBelow.
func (r *room) signalStoredLocked() {
	if r.stored != nil {
		close(r.stored)
		r.stored = nil
	}
}

// applyLocked applies update and returns what it changed (nil: nothing).
// While parts of the document wait for missing dependencies the whole
// update is kept, so nothing that waits is lost to the store.
func (r *room) applyLocked(update []byte) ([]byte, error) {
	r.captured = r.captured[:0]
	if err := r.doc.ApplyUpdate(update); err != nil {
		return nil, err
	}
	if r.doc.HasPending() {
		return update, nil
	}
	switch len(r.captured) {
	case 0:
		return nil, nil
	case 1:
		return r.captured[0], nil
	}
	return yjs.MergeUpdates(r.captured...)
}

// applyStored applies an update that is already stored (another replica's
// fan-out, a REST write, a catch-up) and relays what it changed here.
func (r *room) applyStored(update []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.broken {
		return
	}
	eff, err := r.applyLocked(update)
	if err != nil {
		r.hub.logger.Warn("realtime: a stored update does not apply", "error", err)
		return
	}
	if eff != nil {
		r.relayLocked(eff, nil)
	}
}

// catchUp applies what the store has and the room lacks: a replica that
// missed fan-out messages converges with the others. The store reads
// only what the room's mark and its own writes do not cover; the mark
// advances once that is applied.
func (r *room) catchUp(ctx context.Context) error {
	r.catchingUp.Lock()
	defer r.catchingUp.Unlock()
	r.mu.Lock()
	since := r.mark
	r.mu.Unlock()
	state, mark, err := r.hub.store.CatchUp(ctx, r.key, since)
	if err != nil {
		return err
	}
	if len(state) > 0 {
		diff, err := yjs.DiffUpdate(state, r.stateVector())
		if err != nil {
			return fmt.Errorf("diff stored state: %w", err)
		}
		r.applyStored(diff)
	}
	r.mu.Lock()
	r.mark = mark
	r.mu.Unlock()
	return nil
}
