package gateway

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/opencollab/backend/pkg/internalauth"
)

const (
	// windowKeyTTL keeps a window's counter a little past its second.
	windowKeyTTL = 2 * time.Second
	// sweepAbove is the bucket count above which stale buckets are dropped.
	sweepAbove = 10_000
)

// rateLimiter enforces a per-key limit per one-second window across all
// gateway replicas, without a Redis round trip per request.
//
// Each replica leases quota from the window's shared Redis counter in
// chunks (INCRBY chunk + EXPIRE in one pipeline, chunk = max(1, limit/10))
// and spends it locally. A lease is granted only the part of its chunk that
// still fits under the limit (limit − total before our INCRBY, clamped to
// [0, chunk]), so the grants of all replicas in one window never add up to
// more than the limit. Once Redis has nothing left for the window, the
// replica refuses the key locally for the rest of the second.
//
// A key used in the second half of a window has its first chunk of the
// next window leased ahead, in the background (ratelimit_ahead.go): the
// requests at each window's start would otherwise all wait on that one
// Redis call, up to redisTimeout when Redis is slow.
//
// Bounds: a replica's unspent lease is lost when the window ends, so a key
// may be refused up to (chunk−1) requests per replica early, or a whole
// chunk when it went quiet after a lease ahead (undershoot);
// windows follow each replica's clock, so clock skew between replicas can
// let one real second overlap two windows, and like every fixed window a
// burst straddling a boundary can reach twice the limit. When Redis fails
// the replica fails open (logged) and grants itself leases up to the limit
// per window on its own: while Redis is down a key gets at most the limit
// per replica, and the API stays up.
type rateLimiter struct {
	rdb    *redis.Client
	guard  *redisGuard
	limit  int64
	chunk  int64
	logger *slog.Logger
	now    func() time.Time

	mu       sync.RWMutex
	buckets  map[string]*bucket
	lastWarn atomic.Int64 // unix second of the last Redis warning
}

// errRedisSkipped stands for a call not made while Redis is known down.
var errRedisSkipped = errors.New("redis skipped after a recent failure")

// bucket is one key's local view of the current window.
type bucket struct {
	mu        sync.Mutex
	keyPrefix string // "rl:<sha256(key)>:", the window second follows
	window    int64
	local     int64 // leased, unspent quota
	fallback  int64 // quota granted locally this window while Redis failed
	exhausted bool  // no quota left for this window
	// ahead is quota leased for window aheadOf before it began; leasing:
	// a lease ahead is in flight.
	ahead   int64
	aheadOf int64
	leasing bool
}

func newRateLimiter(rdb *redis.Client, guard *redisGuard, limit int64, logger *slog.Logger) *rateLimiter {
	return &rateLimiter{
		rdb: rdb, guard: guard, limit: limit, chunk: max(1, limit/10), logger: logger,
		now: time.Now, buckets: make(map[string]*bucket),
	}
}

// allow reports whether one more request of key fits in the current window.
func (l *rateLimiter) allow(ctx context.Context, key string) bool {
	b := l.bucket(key)
	now := l.now()
	sec := now.Unix()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.window != sec {
		b.roll(sec)
	}
	l.leaseAhead(ctx, b, now)
	if b.local > 0 {
		b.local--
		return true
	}
	if b.exhausted {
		return false
	}
	granted, err := l.lease(ctx, b.keyPrefix+strconv.FormatInt(sec, 10))
	if err != nil {
		l.warnRedis(ctx, err)
		granted = min(l.chunk, l.limit-b.fallback)
		b.fallback += granted
	}
	if granted <= 0 {
		b.exhausted = true
		return false
	}
	b.local = granted - 1
	return true
}

// lease takes up to one chunk of the window's quota from Redis.
func (l *rateLimiter) lease(ctx context.Context, key string) (int64, error) {
	if !l.guard.available() {
		return 0, errRedisSkipped
	}
	ctx, cancel := l.guard.context(ctx)
	defer cancel()
	var incr *redis.IntCmd
	_, err := l.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		incr = p.IncrBy(ctx, key, l.chunk)
		p.Expire(ctx, key, windowKeyTTL)
		return nil
	})
	if err != nil {
		l.guard.failed()
		return 0, err
	}
	before := incr.Val() - l.chunk
	return min(l.chunk, max(0, l.limit-before)), nil
}

// warnRedis logs a Redis failure at most once a second.
func (l *rateLimiter) warnRedis(ctx context.Context, err error) {
	if errors.Is(err, errRedisSkipped) {
		return
	}
	sec := l.now().Unix()
	if last := l.lastWarn.Load(); last != sec && l.lastWarn.CompareAndSwap(last, sec) {
		l.logger.WarnContext(ctx, "rate limit store unavailable, allowing requests", "error", err)
	}
}

func (l *rateLimiter) bucket(key string) *bucket {
	l.mu.RLock()
	b := l.buckets[key]
	l.mu.RUnlock()
	if b != nil {
		return b
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if b = l.buckets[key]; b != nil {
		return b
	}
	if len(l.buckets) >= sweepAbove {
		l.sweepLocked()
	}
	// The key is hashed so API keys never appear in Redis key names.
	b = &bucket{keyPrefix: "rl:" + internalauth.HashToken(key) + ":"}
	l.buckets[key] = b
	return b
}

// sweepLocked drops buckets idle for more than a window. A request still
// holding a dropped bucket only loses its leftover lease.
func (l *rateLimiter) sweepLocked() {
	stale := l.now().Unix() - 1
	for k, b := range l.buckets {
		if b.mu.TryLock() {
			old := b.window < stale
			b.mu.Unlock()
			if old {
				delete(l.buckets, k)
			}
		}
	}
}
