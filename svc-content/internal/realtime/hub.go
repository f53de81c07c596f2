package realtime

import (
	"context"
	"crypto/rand"
	"log/slog"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// EditSink hears of stored edits, to publish the crdt webhook event and
// the activity record (debounced per editor).
type EditSink interface {
	Edited(key DocKey, authors []Author)
}

// Options are what a Hub runs on. Without Redis the hub serves a single
// replica: no fan-out, connection limits counted in process. With Redis
// and Settings.Solo it is the only replica too, and works the same: no
// other replica could hear its fan-out or share its counts.
type Options struct {
	Store    Store
	Access   Access
	Redis    *redis.Client
	Edits    EditSink
	Origins  OriginPolicy // nil: every origin may connect
	Settings Settings
	Logger   *slog.Logger
}

// Hub holds the rooms of this replica and the background work that keeps
// them alive: liveness pings, catch-up with the store, access re-checks.
type Hub struct {
	store    Store
	access   Access
	fanout   *Fanout
	counter  SessionCounter
	local    *localCounter // the fallback while Redis cannot count
	heart    *RedisCounter
	edits    EditSink
	origins  OriginPolicy
	settings Settings
	logger   *slog.Logger
	replica  string // this replica's id in fan-out messages

	committer *committer

	ctx    context.Context // background work; ends with Close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	rooms    map[DocKey]*room
	conns    map[*conn]struct{}
	sessions *sessions
	closing  bool
	// drained is closed once Close has begun and the last connection
	// left (a hub-wide signal: a channel per connection cost ~100 bytes
	// each).
	drained chan struct{}
}

// NewHub returns a hub; Run starts its background work.
func NewHub(o Options) *Hub {
	ctx, cancel := context.WithCancel(context.Background())
	h := &Hub{
		store: o.Store, access: o.Access, edits: o.Edits, origins: o.Origins, local: newLocalCounter(),
		settings: o.Settings.WithDefaults(), logger: o.Logger, replica: rand.Text()[:16],
		ctx: ctx, cancel: cancel, rooms: map[DocKey]*room{}, conns: map[*conn]struct{}{},
	}
	h.committer = newCommitter(h)
	if h.logger == nil {
		h.logger = slog.Default()
	}
	h.counter = h.local
	if o.Redis != nil && !h.settings.Solo {
		h.fanout = NewFanout(o.Redis)
		h.fanout.bind(h)
		h.heart = NewRedisCounter(o.Redis, h.replica)
		h.counter = h.heart
	}
	h.sessions = newSessions(h)
	return h
}

// Run starts the background loops; they stop with Close.
func (h *Hub) Run() {
	h.wg.Go(func() { h.committer.run(h.ctx) })
	h.wg.Go(func() { h.every(h.settings.PingInterval, h.pingAll) })
	h.wg.Go(func() { h.every(h.settings.CatchUpInterval, h.catchUpAll) })
	h.wg.Go(func() { h.every(h.settings.AccessRecheck, h.sessions.recheckAll) })
	if h.fanout != nil {
		h.wg.Go(func() { h.fanout.run(h.ctx) })
	}
	if h.heart != nil {
		// The heartbeat key must exist before the first count, or the
		// count script takes this replica for dead.
		h.heart.beat(h.ctx)
		h.wg.Go(func() { h.heart.Heartbeat(h.ctx) })
	}
}

// acquire counts a new session of key against the limits; while Redis
// cannot count, this replica counts alone.
func (h *Hub) acquire(ctx context.Context, key DocKey) (func(), error) {
	s := h.settings
	release, err := h.counter.Acquire(ctx, key, s.MaxPerWorkspace, s.MaxPerDocument)
	if err != nil && h.counter != SessionCounter(h.local) {
		if _, limited := err.(*LimitError); !limited {
			h.logger.Warn("realtime: counting sessions in Redis failed; counting on this replica", "error", err)
			return h.local.Acquire(ctx, key, s.MaxPerWorkspace, s.MaxPerDocument)
		}
	}
	return release, err
}

func (h *Hub) every(d time.Duration, fn func()) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-h.ctx.Done():
			return
		case <-t.C:
			fn()
		}
	}
}

// room returns the loaded (or loading) room of key.
func (h *Hub) room(key DocKey) *room {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r, ok := h.rooms[key]; ok && !r.loadFailed() {
		return r
	}
	r := newRoom(h, key)
	h.rooms[key] = r
	// Subscribed first, loaded second: a fan-out update that arrives in
	// between is applied on top (Yjs updates commute).
	go func() {
		if h.fanout != nil {
			h.fanout.subscribe(r)
		}
		r.load(h.ctx)
	}()
	return r
}

// forget drops a failed room so the next client loads it afresh.
func (h *Hub) forget(r *room) {
	h.mu.Lock()
	mine := h.rooms[r.key] == r
	if mine {
		delete(h.rooms, r.key)
	}
	h.mu.Unlock()
	if mine && h.fanout != nil {
		h.fanout.unsubscribe(r)
	}
}

// unloadIfIdle unloads a room nobody joined while it lingered.
func (h *Hub) unloadIfIdle(r *room) {
	h.mu.Lock()
	if h.rooms[r.key] != r || !r.idle() {
		h.mu.Unlock()
		return
	}
	delete(h.rooms, r.key)
	h.mu.Unlock()
	if h.fanout != nil {
		h.fanout.unsubscribe(r)
	}
}

// roomByKey returns the room of key if it is loaded here.
func (h *Hub) roomByKey(key DocKey) *room {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.rooms[key]
}

func (h *Hub) allRooms() []*room {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]*room, 0, len(h.rooms))
	for _, r := range h.rooms {
		out = append(out, r)
	}
	return out
}

// track registers a connection for pings and shutdown; false when the hub
// is shutting down.
func (h *Hub) track(c *conn) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closing {
		return false
	}
	h.conns[c] = struct{}{}
	return true
}

func (h *Hub) untrack(c *conn) {
	h.mu.Lock()
	delete(h.conns, c)
	if len(h.conns) == 0 && h.drained != nil {
		close(h.drained)
		h.drained = nil
	}
	h.mu.Unlock()
}

func (h *Hub) pingAll() {
	h.mu.Lock()
	conns := make([]*conn, 0, len(h.conns))
	for c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.Unlock()
	for _, c := range conns {
		c.ping()
	}
	now := time.Now()
	for _, r := range h.allRooms() {
		r.expireAwareness(now)
	}
}

// catchUpAll compares every room with the store (the safety net for
// fan-out messages this replica missed). A Solo hub runs it too: its
// commits and the REST writes Stored hands it are not the only writers
// (a document migration re-keys stored editors under a document id whose
// room may be open), and it reads only what the room lacks. Hubs without
// Redis skip it.
func (h *Hub) catchUpAll() {
	if h.fanout == nil && !h.settings.Solo {
		return
	}
	for _, r := range h.allRooms() {
		h.catchUp(r)
	}
}

func (h *Hub) catchUp(r *room) {
	select {
	case <-r.ready:
	default:
		return // still loading: it reads the store anyway
	}
	if r.err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(h.ctx, storeTimeout)
	defer cancel()
	if err := r.catchUp(ctx); err != nil {
		h.logger.Warn("realtime: catch-up with the store failed", "error", err)
	}
}

// edited passes stored edits to the event sink.
func (h *Hub) edited(key DocKey, authors []Author) {
	if h.edits != nil {
		h.edits.Edited(key, authors)
	}
}

// Close shuts down gracefully: every client gets what was queued for it and
// a going-away close frame, updates being stored finish, then the
// background work stops. ctx bounds the wait.
func (h *Hub) Close(ctx context.Context) {
	h.mu.Lock()
	h.closing = true
	conns := make([]*conn, 0, len(h.conns))
	for c := range h.conns {
		conns = append(conns, c)
	}
	drained := make(chan struct{})
	if len(conns) == 0 {
		close(drained)
	} else {
		h.drained = drained
	}
	h.mu.Unlock()
	for _, c := range conns {
		c.close(CloseGoingAway, "server shutting down; reconnect")
	}
	select {
	case <-drained:
	case <-ctx.Done():
	}
	for !h.committer.drained() && ctx.Err() == nil {
		time.Sleep(10 * time.Millisecond)
	}
	h.cancel()
	h.wg.Wait()
}
