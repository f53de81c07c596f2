package realtime

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// committer is the replica-wide group commit: the rooms that received
// updates queue themselves here, and one loop takes every queued room's
// updates as one batch, stores the batch with one Store.AppendBatch call
// (one store round-trip for all documents), then acknowledges and fans
// out what was stored. While a batch is being written the next one
// gathers, so the busier the replica the larger (and cheaper per update)
// its writes; an idle committer gathers for Settings.CommitGather after
// the first room is queued, as a store write costs far more than the
// update it carries (see gather). Nothing is acknowledged or fanned out
// before it is stored (relaying to the members of the same replica does
// not wait: see receiveUpdate).
type committer struct {
	hub  *Hub
	wake chan struct{} // one token: rooms are queued

	mu       sync.Mutex
	queued   []*room
	since    time.Time // when the first of queued was queued
	inflight int       // batches taken and not yet released
}

func newCommitter(h *Hub) *committer {
	return &committer{hub: h, wake: make(chan struct{}, 1)}
}

// storedBatch is a written batch on its way to release.
type storedBatch struct {
	batch []roomBatch
	errs  []error
}

// enqueue queues r for the next batch (r set r.queued under its lock, so a
// room is queued once however many updates it gathers).
func (c *committer) enqueue(r *room) {
	c.mu.Lock()
	if len(c.queued) == 0 {
		c.since = time.Now()
	}
	c.queued = append(c.queued, r)
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// run writes batches until ctx ends; Hub.Close waits for the queue to be
// empty before it cancels ctx, so what was received is stored. A written
// batch is released (acknowledged, fanned out) by a second goroutine
// while the next one is written, in order: one batch waits at most.
func (c *committer) run(ctx context.Context) {
	stored := make(chan storedBatch)
	released := make(chan struct{})
	go func() {
		defer close(released)
		for sb := range stored {
			c.release(sb)
		}
	}()
	defer func() { close(stored); <-released }()
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.wake:
		}
		for {
			c.gather(ctx)
			if !c.commitQueued(stored) {
				break
			}
		}
	}
}

// gather waits until the first queued room has waited CommitGather, so
// the updates that arrive meanwhile share its store write: on a quiet
// replica every update would otherwise be a write of its own, each
// costing the store (a transaction, a commit) and Redis (a publish) more
// than the update. A committer kept busy by a write finds its queue
// older than that and does not wait.
func (c *committer) gather(ctx context.Context) {
	c.mu.Lock()
	wait := c.hub.settings.CommitGather - time.Since(c.since)
	empty := len(c.queued) == 0
	c.mu.Unlock()
	if empty || wait <= 0 {
		return
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done(): // Close drains the queue before it cancels: a failure path
	}
}

// roomBatch is what one room contributes to a batch.
type roomBatch struct {
	room    *room
	pending []pendingUpdate
	bytes   int    // the pending updates' sizes
	update  []byte // the pending updates merged
}

// fail fails the batch's room: its sessions are closed, and the updates
// taken for this batch (no longer the room's pending ones, which
// room.fail settles) will never be acknowledged.
func (rb roomBatch) fail(err error) {
	rb.room.fail(err)
	settleAcks(rb.pending)
}

// commitQueued stores the rooms queued now and hands them to release;
// false when none was.
func (c *committer) commitQueued(stored chan<- storedBatch) bool {
	c.mu.Lock()
	rooms := c.queued
	c.queued = nil
	if len(rooms) > 0 {
		c.inflight++
	}
	c.mu.Unlock()
	if len(rooms) == 0 {
		return false
	}
	batch := make([]roomBatch, 0, len(rooms))
	items := make([]Append, 0, len(rooms))
	for _, r := range rooms {
		rb, ok := r.takePending()
		if !ok {
			continue
		}
		update, err := mergePending(rb.pending)
		if err != nil {
			rb.fail(err)
			continue
		}
		rb.update = update
		batch = append(batch, rb)
		items = append(items, Append{Key: r.key, Update: update, By: rb.pending[len(rb.pending)-1].from.author})
	}
	var errs []error
	if len(items) > 0 {
		ctx, cancel := context.WithTimeout(c.hub.ctx, storeTimeout)
		errs = c.hub.store.AppendBatch(ctx, items)
		cancel()
	}
	stored <- storedBatch{batch: batch, errs: errs}
	return true
}

// release acknowledges and fans out a written batch (failing the rooms
// whose write failed).
func (c *committer) release(sb storedBatch) {
	defer c.done()
	batch, errs := sb.batch, sb.errs
	published := make([]publication, 0, len(batch))
	for i, rb := range batch {
		if err := errAt(errs, i); err != nil {
			rb.fail(fmt.Errorf("store update: %w", err))
			continue
		}
		if p, ok := rb.room.release(rb); ok {
			published = append(published, p)
		}
	}
	c.hub.publishUpdates(published)
}

func errAt(errs []error, i int) error {
	if i < len(errs) {
		return errs[i]
	}
	return nil
}

func (c *committer) done() {
	c.mu.Lock()
	c.inflight--
	c.mu.Unlock()
}

// drained reports whether nothing waits to be stored or released.
func (c *committer) drained() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.inflight == 0 && len(c.queued) == 0
}

// mergePending makes one update of a room's pending updates.
func mergePending(batch []pendingUpdate) ([]byte, error) {
	if len(batch) == 1 {
		return batch[0].update, nil
	}
	parts := make([][]byte, len(batch))
	for i, p := range batch {
		parts[i] = p.update
	}
	update, err := yjs.MergeUpdates(parts...)
	if err != nil {
		return nil, fmt.Errorf("merge updates: %w", err)
	}
	return update, nil
}

// takePending hands the room's pending updates to a batch.
func (r *room) takePending() (roomBatch, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.queued = false
	if r.broken || len(r.pending) == 0 {
		return roomBatch{}, false
	}
	rb := roomBatch{room: r, pending: r.pending}
	for _, p := range r.pending {
		rb.bytes += len(p.update)
	}
	r.pending = nil
	r.storing++
	return rb, true
}

// publication is a stored update of a room for the other replicas.
type publication struct {
	key    DocKey
	seq    uint64
	update []byte
}

// release notes a stored batch (senders held back by the room's unstored
// bound go on), acknowledges each update to its sender, passes the edits
// on and returns the batch's fan-out message (one merged update).
func (r *room) release(rb roomBatch) (publication, bool) {
	r.mu.Lock()
	r.storing--
	r.unstored -= rb.bytes
	r.storedCount += uint64(len(rb.pending))
	r.signalStoredLocked()
	if r.broken {
		r.mu.Unlock()
		settleAcks(rb.pending)
		return publication{}, false
	}
	r.seq++
	p := publication{key: r.key, seq: r.seq, update: rb.update}
	r.mu.Unlock()
	authors := make([]Author, 0, len(rb.pending))
	for _, pu := range rb.pending {
		pu.from.queueAck()
		authors = append(authors, pu.from.author)
	}
	// Each sender's acknowledgements go out at once, together with the
	// relays held for it meanwhile (one write).
	for _, pu := range rb.pending {
		pu.from.c.flushHeld()
	}
	r.hub.edited(r.key, authors)
	return p, true
}
