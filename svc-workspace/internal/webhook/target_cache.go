package webhook

import (
	"context"
	"errors"
	"sync"
	"time"
)

// DefaultTargetCacheTTL is how long a replica reuses what it read of a
// workspace's delivery targets (Options.TargetCacheTTL).
const DefaultTargetCacheTTL = 2 * time.Second

// workspaceTargets is what the delivery needs of a workspace, read in one
// go: the configuration (IsEnabled already false when advanced webhooks
// are off) and every active endpoint with its secrets opened. Shared by
// every reader while cached: nobody may modify it.
type workspaceTargets struct {
	cfg     Config
	targets []DeliveryTarget
	// validUntil is the earliest expiry of a rotated-out secret in targets
	// (zero: none), so a cached old secret never signs past its overlap.
	validUntil time.Time
}

// targetCache keeps workspaceTargets per workspace for a short TTL, so the
// delivery does not read the configuration, the operator's switch and the
// endpoints from the store for every event and every attempt (three reads
// each, and scans on FerretDB).
//
// The price is staleness across replicas: a change made through another
// replica (endpoint disabled, deleted or updated, configuration or switch
// changed, secret rotated) is seen here only when the entry expires, so
// that endpoint may get attempts — or miss events — for up to the TTL.
// Changes made through this replica call invalidate at once.
//
// Concurrent misses of one workspace share one fill (the workers would
// otherwise all read the store at the moment an entry expires). An
// invalidation also drops a fill in flight, whose result is then returned
// to its own caller only: it may have read the store before the change
// was written.
type targetCache struct {
	ttl time.Duration // <= 0: no caching
	now func() time.Time

	mu      sync.Mutex
	entries map[string]*cacheEntry
}

type cacheEntry struct {
	done    chan struct{} // closed when the fill has finished
	val     workspaceTargets
	err     error
	expires time.Time
}

func newTargetCache(ttl time.Duration, now func() time.Time) *targetCache {
	return &targetCache{ttl: ttl, now: now, entries: map[string]*cacheEntry{}}
}

// get returns the cached targets of workspaceID, or those fill reads.
// Errors are never cached: the next call reads again.
func (c *targetCache) get(ctx context.Context, workspaceID string, fill func(context.Context) (workspaceTargets, error)) (workspaceTargets, error) {
	if c.ttl <= 0 {
		return fill(ctx)
	}
	for {
		c.mu.Lock()
		e, ok := c.entries[workspaceID]
		if ok && e.finished() {
			// A finished entry still in the map has no error.
			if c.now().Before(e.expires) {
				val := e.val
				c.mu.Unlock()
				return val, nil
			}
			ok = false // expired
		}
		if !ok {
			break // this caller fills, still holding mu
		}
		c.mu.Unlock()
		select {
		case <-e.done:
		case <-ctx.Done():
			return workspaceTargets{}, ctx.Err()
		}
		// Look again: that fill may have failed or been invalidated.
	}
	e := &cacheEntry{done: make(chan struct{})}
	c.entries[workspaceID] = e
	started := c.now()
	c.mu.Unlock()

	settled := false
	defer func() {
		if !settled { // fill panicked: waiters must read again, not wait forever
			c.settle(workspaceID, e, started, workspaceTargets{}, errors.New("webhook: reading delivery targets panicked"))
		}
	}()
	val, err := fill(ctx)
	settled = true
	c.settle(workspaceID, e, started, val, err)
	return val, err
}

// settle records the outcome of e's fill and wakes its waiters.
func (c *targetCache) settle(workspaceID string, e *cacheEntry, started time.Time, val workspaceTargets, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e.val, e.err = val, err
	// The TTL counts from before the reads: the data is at most that old.
	e.expires = started.Add(c.ttl)
	if !val.validUntil.IsZero() && val.validUntil.Before(e.expires) {
		e.expires = val.validUntil
	}
	if err != nil && c.entries[workspaceID] == e {
		delete(c.entries, workspaceID)
	}
	close(e.done)
}

// invalidate forgets workspaceID's entry, finished or in flight; callers
// waiting for a fill in flight then read again.
func (c *targetCache) invalidate(workspaceID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, workspaceID)
}

func (e *cacheEntry) finished() bool {
	select {
	case <-e.done:
		return true
	default:
		return false
	}
}
