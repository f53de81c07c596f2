package gateway

import (
	"context"
	"time"
)

// Keeping credentials warm (AUTH_CACHE_KEEP_WARM).
//
// An in-process entry is trusted for AUTH_CACHE_TTL (<= 1s) after the
// Redis read it came from, so that a token reset, which tombstones the
// Redis entry, takes effect within a second. A key used less often than
// that paid two Redis round trips on each request: the credential read,
// and the rate limit's lease for the new window. The keeper takes the first
// off the request path: every ttl/2 it reads the Redis entries of the keys
// used in the last AUTH_CACHE_KEEP_WARM in one MGET per batch, and an
// entry still holding the value the record came from is trusted for
// another ttl from the moment of that read. That is the same rule a
// request's own read follows, so the reset deadline is unchanged: a
// tombstone, or any other change, stops the extension, and the entry
// lapses within ttl of the last read that confirmed it.
//
// Keys whose entry changed or expired in Redis (after
// redisCredentialTTL) are refreshed in the background, a few per round, so
// a warm key does not wait on svc-workspace either.

const (
	// maxWarmKeys bounds the keys one round confirms; past it, keys are
	// taken in map order and the others resume as before.
	maxWarmKeys = 10_000
	// warmBatch is the number of keys per MGET.
	warmBatch = 500
	// maxWarmRefreshes bounds the background refreshes one round starts,
	// so a mass expiry in Redis does not become a burst of lookups.
	maxWarmRefreshes = 32
	// minWarmEvery keeps a tiny AUTH_CACHE_TTL from spinning the keeper.
	minWarmEvery = 50 * time.Millisecond
)

// startKeeper keeps recently used credentials warm for warmFor after their
// last request, when the in-process cache is on. Close stops it.
func (g *Gateway) startKeeper(warmFor time.Duration) {
	if warmFor <= 0 || g.creds.ttl <= 0 {
		return
	}
	g.creds.warmFor = warmFor
	ctx, cancel := context.WithCancel(context.Background())
	g.stopKeeper, g.keeperDone = cancel, make(chan struct{})
	go func() {
		defer close(g.keeperDone)
		g.creds.keepWarm(ctx)
	}()
}

// warmEntry is a key the keeper confirms this round.
type warmEntry struct {
	apiKey string
	c      *credential
}

// keepWarm confirms the recently used keys every ttl/2 until ctx ends,
// then waits for the reloads it started.
func (s *credentialStore) keepWarm(ctx context.Context) {
	t := time.NewTicker(max(s.ttl/2, minWarmEvery))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			s.reloads.Wait()
			return
		case <-t.C:
			s.refreshAll(ctx, s.confirmWarm(ctx))
		}
	}
}

// confirmWarm extends the entries still current in Redis and returns the
// keys whose entry is not (changed, tombstoned, expired or never written).
func (s *credentialStore) confirmWarm(ctx context.Context) []string {
	warm := s.warmEntries(s.now())
	var stale []string
	for len(warm) > 0 {
		n := min(len(warm), warmBatch)
		more, ok := s.confirmBatch(ctx, warm[:n])
		if !ok {
			return nil // Redis is failing: entries lapse, requests fall back
		}
		stale = append(stale, more...)
		warm = warm[n:]
	}
	return stale
}

// warmEntries lists the found entries used within warmFor of now.
func (s *credentialStore) warmEntries(now time.Time) []warmEntry {
	since := now.Add(-s.warmFor).UnixNano()
	s.mu.RLock()
	defer s.mu.RUnlock()
	var warm []warmEntry
	for k, c := range s.entries {
		if len(warm) == maxWarmKeys {
			break
		}
		if c.found && c.lastUsed.Load() > since {
			warm = append(warm, warmEntry{apiKey: k, c: c})
		}
	}
	return warm
}

// confirmBatch reads one batch's Redis entries and extends each entry
// whose Redis value is still its source. ok is false when Redis failed.
func (s *credentialStore) confirmBatch(ctx context.Context, batch []warmEntry) (stale []string, ok bool) {
	if !s.guard.available() {
		return nil, false
	}
	keys := make([]string, len(batch))
	for i, w := range batch {
		keys[i] = w.c.cacheKey
	}
	rctx, cancel := s.guard.context(ctx)
	defer cancel()
	// The read may have happened at any moment from here on: trusting the
	// values from before the call keeps the ttl bound.
	readAt := s.now()
	values, err := s.rdb.MGet(rctx, keys...).Result()
	if err != nil {
		s.guard.failed()
		s.logger.WarnContext(ctx, "credential cache unavailable, warm keys lapse", "error", err)
		return nil, false
	}
	for i, w := range batch {
		if v, isString := values[i].(string); isString && w.c.source != "" && v == w.c.source {
			s.extend(w.c, readAt)
			continue
		}
		stale = append(stale, w.apiKey)
	}
	return stale, true
}

// extend trusts c for ttl from readAt, a read that found it current, and
// signs its principal anew for that time.
func (s *credentialStore) extend(c *credential, readAt time.Time) {
	until := readAt.Add(s.ttl).UnixNano()
	if until <= c.expires.Load() {
		return
	}
	c.signed.Store(signPrincipal(s.signer, c.principal, readAt))
	c.refreshAt.Store(readAt.Add(s.ttl * 4 / 5).UnixNano())
	c.expires.Store(until)
}

// refreshAll reloads up to maxWarmRefreshes stale keys in the background
// (Redis, else svc-workspace); the others are reloaded by a later round or
// by their next request.
func (s *credentialStore) refreshAll(ctx context.Context, stale []string) {
	for _, k := range stale[:min(len(stale), maxWarmRefreshes)] {
		s.reloads.Go(func() { s.refresh(ctx, k) })
	}
}
