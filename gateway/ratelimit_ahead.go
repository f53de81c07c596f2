package gateway

import (
	"context"
	"strconv"
	"time"
)

// aheadFrom is how far into a window a request starts the lease of the
// next window's first chunk: late enough that a key seen only at the
// start of a second leases nothing it may not use, early enough that the
// lease lands before the window ends.
const aheadFrom = 500 * time.Millisecond

// roll starts window sec, with the quota leased ahead for it if any.
func (b *bucket) roll(sec int64) {
	b.window, b.local, b.fallback, b.exhausted = sec, 0, 0, false
	if b.aheadOf == sec {
		// Nothing granted: the window's counter is already at the limit,
		// and it only grows.
		b.local, b.exhausted = b.ahead, b.ahead == 0
	}
	b.ahead, b.aheadOf = 0, 0
}

// leaseAhead starts the lease of the next window's first chunk when the
// current one is past aheadFrom and none was started yet. b.mu is held.
// While Redis is known down nothing is leased: the window start falls
// back at once, without a call.
func (l *rateLimiter) leaseAhead(ctx context.Context, b *bucket, now time.Time) {
	next := b.window + 1
	if b.leasing || b.aheadOf == next || time.Duration(now.Nanosecond()) < aheadFrom || !l.guard.available() {
		return
	}
	b.leasing = true
	go l.leaseFor(context.WithoutCancel(ctx), b, next)
}

// leaseFor leases window's first chunk for b and hands it over: kept for
// the window if it has not begun, added to its quota if it has (a request
// there found none and leased its own meanwhile), dropped if it is over.
func (l *rateLimiter) leaseFor(ctx context.Context, b *bucket, window int64) {
	granted, err := l.lease(ctx, b.keyPrefix+strconv.FormatInt(window, 10))
	b.mu.Lock()
	defer b.mu.Unlock()
	b.leasing = false
	if err != nil {
		l.warnRedis(ctx, err)
		return // the window's first request leases, or falls back, as without
	}
	switch {
	case b.window < window:
		b.ahead, b.aheadOf = granted, window
	case b.window == window:
		b.local += granted
	}
}
