package gateway

import (
	"context"
	"sync/atomic"
	"time"
)

const (
	// redisTimeout bounds each Redis call on the request path. Redis
	// answers in well under a millisecond when healthy; waiting longer only
	// holds requests up.
	redisTimeout = 250 * time.Millisecond
	// redisCooldown is how long Redis is skipped after a failure.
	redisCooldown = time.Second
)

// redisGuard is a small circuit breaker shared by the credential cache and
// the rate limiter. When Redis fails, the request path stops calling it for
// a second, so an outage costs one slow call per second per replica instead
// of a timeout on every request: losing Redis must not take the API down.
type redisGuard struct {
	openUntil atomic.Int64 // unix nanoseconds; Redis is skipped before this
	now       func() time.Time
}

func newRedisGuard() *redisGuard { return &redisGuard{now: time.Now} }

// available reports whether Redis may be called now.
func (g *redisGuard) available() bool { return g.now().UnixNano() >= g.openUntil.Load() }

// failed records a failed call.
func (g *redisGuard) failed() { g.openUntil.Store(g.now().Add(redisCooldown).UnixNano()) }

// context bounds one Redis call and detaches it from the client's cancel,
// so a client hanging up is not mistaken for a Redis failure.
func (g *redisGuard) context(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), redisTimeout)
}
