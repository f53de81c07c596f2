package delivery

import (
	"sync"
	"time"
)

// rateLimiter holds a token bucket per endpoint with a rateLimit
// (messages/second, burst of one second's worth). It is per replica: with
// several replicas an endpoint can get up to rateLimit × replicas per
// second — the "brief overshoot" §14 allows, not a hard cap.
//
// An endpoint out of tokens is blocked until its next token: the
// dispatcher leaves its messages out of its looks until then, so a limited
// backlog waits in the queue without store writes or busy workers.
type rateLimiter struct {
	mu      sync.Mutex
	buckets map[string]*bucket
	blocked map[string]time.Time // endpoint → no token before
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newRateLimiter() *rateLimiter {
	return &rateLimiter{buckets: map[string]*bucket{}, blocked: map[string]time.Time{}}
}

// take spends a token of the endpoint's bucket at now and returns 0, or
// returns how long until one is available (nothing spent, the endpoint
// blocked until then). No limit: 0.
func (l *rateLimiter) take(endpointID string, limit *int, now time.Time) time.Duration {
	if limit == nil || *limit <= 0 {
		return 0
	}
	rate := float64(*limit)
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[endpointID]
	if !ok {
		if len(l.buckets) > 100_000 { // bound memory; a reset only refills
			clear(l.buckets)
		}
		b = &bucket{tokens: rate, last: now}
		l.buckets[endpointID] = b
	}
	b.tokens = min(rate, b.tokens+now.Sub(b.last).Seconds()*rate)
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return 0
	}
	wait := time.Duration((1 - b.tokens) / rate * float64(time.Second))
	l.blocked[endpointID] = now.Add(wait)
	return wait
}

// blockedAt lists the endpoints without a token at now.
func (l *rateLimiter) blockedAt(now time.Time) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for id, until := range l.blocked {
		if now.Before(until) {
			out = append(out, id)
		} else {
			delete(l.blocked, id)
		}
	}
	return out
}
