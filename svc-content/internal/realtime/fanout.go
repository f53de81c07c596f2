package realtime

import (
	"context"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// Fanout carries stored updates and awareness between the replicas that
// serve a document, over Redis pub/sub: one channel per document, to
// which a replica subscribes while it has the room loaded. Pub/sub may
// drop messages (a reconnect, a slow subscriber); that costs latency, not
// data: updates are stored before they are published, and a room that
// sees a gap in a replica's sequence, or resubscribes, catches up from the
// store (and every room does every CatchUpInterval).
type Fanout struct {
	rdb *redis.Client
	hub *Hub

	mu        sync.Mutex
	ps        *redis.PubSub
	rooms     map[string]*room // by channel
	confirmed map[string]bool  // channels whose subscription was confirmed once
}

// Message kinds on a channel.
const (
	fanUpdate    = 'u'
	fanAwareness = 'a'
	fanStateless = 's'
)

// NewFanout returns a fan-out over rdb.
func NewFanout(rdb *redis.Client) *Fanout {
	return &Fanout{rdb: rdb, rooms: map[string]*room{}, confirmed: map[string]bool{}}
}

func (f *Fanout) bind(h *Hub) {
	f.hub = h
	f.ps = f.rdb.Subscribe(h.ctx)
}

func (f *Fanout) subscribe(r *room) {
	ch := r.key.channel()
	f.mu.Lock()
	f.rooms[ch] = r
	f.mu.Unlock()
	if err := f.ps.Subscribe(f.hub.ctx, ch); err != nil {
		f.hub.logger.Warn("realtime: fan-out subscribe failed; the room catches up from the store", "error", err)
	}
}

func (f *Fanout) unsubscribe(r *room) {
	ch := r.key.channel()
	f.mu.Lock()
	if f.rooms[ch] == r {
		delete(f.rooms, ch)
		delete(f.confirmed, ch)
	}
	f.mu.Unlock()
	_ = f.ps.Unsubscribe(f.hub.ctx, ch)
}

// run dispatches what arrives until ctx ends.
func (f *Fanout) run(ctx context.Context) {
	defer f.ps.Close()
	in := f.ps.ChannelWithSubscriptions(redis.WithChannelSize(4096))
	for {
		select {
		case <-ctx.Done():
			return
		case msg := <-in:
			switch m := msg.(type) {
			case *redis.Message:
				f.dispatch(m.Channel, []byte(m.Payload))
			case *redis.Subscription:
				f.confirm(m)
			}
		}
	}
}

// confirm notes a subscription; a second confirmation of a channel is a
// resubscription after a lost connection, so the room catches up.
func (f *Fanout) confirm(s *redis.Subscription) {
	if s.Kind != "subscribe" {
		return
	}
	f.mu.Lock()
	r := f.rooms[s.Channel]
	again := f.confirmed[s.Channel]
	f.confirmed[s.Channel] = true
	f.mu.Unlock()
	if r != nil && again {
		go f.hub.catchUp(r)
	}
}

func (f *Fanout) dispatch(ch string, msg []byte) {
	f.mu.Lock()
	r := f.rooms[ch]
	f.mu.Unlock()
	if r == nil || len(msg) < 2 {
		return
	}
	d := lib0.NewDecoder(msg[1:])
	from := d.ReadVarString()
	seq := d.ReadVarUint()
	payload := d.Rest()
	if d.Err() != nil || from == f.hub.replica {
		return
	}
	switch msg[0] {
	case fanUpdate:
		if r.noteRemoteSeq(from, seq) {
			go f.hub.catchUp(r)
		}
		r.applyStored(payload)
	case fanAwareness:
		r.applyRemoteAwareness(payload)
	case fanStateless:
		r.relayStateless(string(payload), nil)
	}
}

// publishTimeout bounds one publish; a late one is dropped (the others
// catch up from the store).
const publishTimeout = 5 * time.Second

func (f *Fanout) publish(key DocKey, kind byte, seq uint64, payload []byte) {
	ctx, cancel := context.WithTimeout(f.hub.ctx, publishTimeout)
	defer cancel()
	if err := f.rdb.Publish(ctx, key.channel(), f.message(kind, seq, payload)).Err(); err != nil {
		f.hub.logger.Warn("realtime: fan-out publish failed; other replicas catch up from the store", "error", err)
	}
}

// message encodes one fan-out message of this replica.
func (f *Fanout) message(kind byte, seq uint64, payload []byte) []byte {
	e := lib0.Encoder{Buf: make([]byte, 0, len(payload)+32)}
	e.WriteUint8(kind)
	e.WriteVarString(f.hub.replica)
	e.WriteVarUint(seq)
	e.WriteBytes(payload)
	return e.Buf
}

// noteRemoteSeq records a replica's sequence number and reports a gap.
// Sequence 0 (REST writes, which number nothing) is never a gap.
func (r *room) noteRemoteSeq(from string, seq uint64) (gap bool) {
	if seq == 0 {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	last, seen := r.remoteSeq[from]
	r.remoteSeq[from] = seq
	return seen && seq != last+1
}

// publishUpdates fans a committed batch's updates out to the other
// replicas, pipelined: one Redis round-trip per batch.
func (h *Hub) publishUpdates(ps []publication) {
	if h.fanout == nil || len(ps) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(h.ctx, publishTimeout)
	defer cancel()
	pipe := h.fanout.rdb.Pipeline()
	for _, p := range ps {
		pipe.Publish(ctx, p.key.channel(), h.fanout.message(fanUpdate, p.seq, p.update))
	}
	if _, err := pipe.Exec(ctx); err != nil {
		h.logger.Warn("realtime: fan-out publish failed; other replicas catch up from the store", "error", err)
	}
}

// publishAwareness fans an awareness update of r out.
func (h *Hub) publishAwareness(r *room, update []byte) {
	if h.fanout != nil {
		h.fanout.publish(r.key, fanAwareness, 0, update)
	}
}

// Stored tells every replica's clients of an update another door (a REST
// write) already stored for key.
func (h *Hub) Stored(ctx context.Context, key DocKey, update []byte) {
	if h.fanout == nil {
		if r := h.roomByKey(key); r != nil {
			r.applyStored(update)
		}
		return
	}
	// Published under an id no replica has, so this replica applies it too.
	e := lib0.Encoder{}
	e.WriteUint8(fanUpdate)
	e.WriteVarString("rest")
	e.WriteVarUint(0)
	e.WriteBytes(update)
	if err := h.fanout.rdb.Publish(ctx, key.channel(), e.Buf).Err(); err != nil {
		h.logger.Warn("realtime: REST update not fanned out; clients get it by catch-up", "error", err)
	}
}

// publishStateless fans a Hocuspocus stateless payload out.
func (h *Hub) publishStateless(r *room, payload string) {
	if h.fanout != nil {
		h.fanout.publish(r.key, fanStateless, 0, []byte(payload))
	}
}
