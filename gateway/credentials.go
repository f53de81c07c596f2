package gateway

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
	"golang.org/x/sync/singleflight"

	"github.com/opencollab/backend/pkg/internalauth"
)

const (
	// lookupPath is svc-workspace's credential lookup route.
	lookupPath = "/internal/credentials/lookup"
	// redisCredentialTTL bounds how long a lookup lives in Redis. A token
	// reset replaces the entry by a tombstone (internalauth.
	// InvalidateCredentials), so this TTL only matters if that write is lost.
	redisCredentialTTL = internalauth.CredentialCacheTTL
	// lookupTimeout bounds one cold lookup (Redis + svc-workspace); it is
	// detached from the first caller so its cancel does not fail the others
	// waiting on the same singleflight.
	lookupTimeout = 5 * time.Second
	// maxCachedKeys bounds the in-process cache against floods of made-up
	// API keys (each of which is cached negatively).
	maxCachedKeys = 100_000
)

// credentialRecord is the lookup result, as svc-workspace returns it in
// result.data and as it is cached in Redis.
type credentialRecord struct {
	WorkspaceID string   `json:"workspaceId"`
	TokenHashes []string `json:"tokenHashes"`
}

// credential is a resolved API key held in process.
type credential struct {
	found  bool
	hashes [][sha256.Size]byte
	// verified[i] is the last token found to hash to hashes[i] (tokens.go).
	verified []atomic.Pointer[string]
	// principal is signed once per entry and again each time the keeper
	// confirms it (credentials_warm.go), so a signature in use is never
	// much older than AUTH_CACHE_TTL (<= 1s), far inside
	// internalauth.MaxSkew.
	principal string
	signed    atomic.Pointer[signedPrincipal]
	// source is the Redis entry the record came from (or was written to),
	// which the keeper compares to confirm the record; "" when the record
	// is in Redis under no value we know of.
	source string
	// cacheKey is internalauth.CredentialCacheKey of the API key, kept so
	// the keeper's rounds do not hash every warm key again.
	cacheKey string
	// expires and refreshAt are unix nanoseconds; the keeper moves both.
	expires   atomic.Int64
	refreshAt atomic.Int64
	// lastUsed is when a request last resolved the entry (unix
	// nanoseconds, to lastUsedStep): the keeper keeps recently used keys
	// only.
	lastUsed atomic.Int64
	// refreshing is set by the request that starts the refresh-ahead.
	refreshing atomic.Bool
}

// lastUsedStep is how stale lastUsed may be: a busy key writes it a few
// times a second, not on every request.
const lastUsedStep = int64(100 * time.Millisecond)

// used records a request resolving c at now (unix nanoseconds).
func (c *credential) used(now int64) {
	if now-c.lastUsed.Load() >= lastUsedStep {
		c.lastUsed.Store(now)
	}
}

// current returns the signed principal of a found credential.
func (c *credential) current() *signedPrincipal { return c.signed.Load() }

// lookuper is the svc-workspace client (svcclient.Client).
type lookuper interface {
	Call(ctx context.Context, path, principal string, in, out any) error
}

// credentialStore resolves API keys: in process (AUTH_CACHE_TTL), then
// Redis (shared by every replica, tombstoned by svc-workspace on token
// changes), then svc-workspace. A lookup is written back to Redis only if
// no tombstone landed while it ran, so a reset takes effect once the
// in-process entry expires, i.e. within AUTH_CACHE_TTL <= 1s.
type credentialStore struct {
	rdb    *redis.Client
	guard  *redisGuard
	lookup lookuper
	signer *internalauth.Signer
	ttl    time.Duration
	logger *slog.Logger
	now    func() time.Time

	// warmFor is AUTH_CACHE_KEEP_WARM: how long after its last request a
	// key is kept warm (credentials_warm.go); 0: not at all.
	warmFor time.Duration
	// reloads are the keeper's background refreshes in flight.
	reloads sync.WaitGroup

	mu      sync.RWMutex
	entries map[string]*credential
	group   singleflight.Group
}

func newCredentialStore(rdb *redis.Client, guard *redisGuard, lookup lookuper, signer *internalauth.Signer, ttl time.Duration, logger *slog.Logger) *credentialStore {
	return &credentialStore{
		rdb: rdb, guard: guard, lookup: lookup, signer: signer, ttl: ttl, logger: logger,
		now: time.Now, entries: make(map[string]*credential),
	}
}

// resolve returns the credential of apiKey (found or not). The only error
// is UNAVAILABLE: the credentials could not be checked at all.
func (s *credentialStore) resolve(ctx context.Context, apiKey string) (*credential, error) {
	now := s.now().UnixNano()
	s.mu.RLock()
	c := s.entries[apiKey]
	s.mu.RUnlock()
	if c != nil && now < c.expires.Load() {
		c.used(now)
		// Refresh a busy key shortly before it expires so its requests never
		// wait on Redis. The new entry again holds data at most ttl old.
		if c.found && now > c.refreshAt.Load() && c.refreshing.CompareAndSwap(false, true) {
			go s.refresh(context.WithoutCancel(ctx), apiKey)
		}
		return c, nil
	}
	v, err, _ := s.group.Do(apiKey, func() (any, error) {
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), lookupTimeout)
		defer cancel()
		return s.load(lctx, apiKey)
	})
	if err != nil {
		return nil, err
	}
	c = v.(*credential)
	c.used(now)
	return c, nil
}

// recheck reloads apiKey past the in-process entry stale, which refused a
// token. Unknown keys are not rechecked (they stay negative for the TTL).
// Concurrent rechecks of a key share one load, and with Redis holding the
// current record a flood of bad tokens costs one Redis read per batch.
func (s *credentialStore) recheck(ctx context.Context, apiKey string, stale *credential) (*credential, error) {
	if !stale.found {
		return stale, nil
	}
	v, err, _ := s.group.Do("recheck\x00"+apiKey, func() (any, error) {
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), lookupTimeout)
		defer cancel()
		return s.load(lctx, apiKey)
	})
	if err != nil {
		return nil, err
	}
	c := v.(*credential)
	c.used(s.now().UnixNano())
	return c, nil
}

func (s *credentialStore) refresh(ctx context.Context, apiKey string) {
	ctx, cancel := context.WithTimeout(ctx, lookupTimeout)
	defer cancel()
	_, _, _ = s.group.Do(apiKey, func() (any, error) { return s.load(ctx, apiKey) })
}

// load fetches apiKey's record and caches it in process.
func (s *credentialStore) load(ctx context.Context, apiKey string) (*credential, error) {
	f, err := s.fetch(ctx, apiKey)
	if err != nil {
		return nil, err
	}
	c := s.newCredential(f.rec, f.found)
	if f.found {
		c.cacheKey, c.source = internalauth.CredentialCacheKey(apiKey), f.source
	}
	s.store(apiKey, c)
	return c, nil
}

func (s *credentialStore) newCredential(rec credentialRecord, found bool) *credential {
	now := s.now()
	c := &credential{found: found}
	c.expires.Store(now.Add(s.ttl).UnixNano())
	c.refreshAt.Store(now.Add(s.ttl * 4 / 5).UnixNano())
	if !found {
		return c
	}
	for _, h := range rec.TokenHashes {
		var sum [sha256.Size]byte
		if n, err := hex.Decode(sum[:], []byte(h)); err != nil || n != sha256.Size {
			s.logger.Warn("ignoring malformed token hash", "workspaceId", rec.WorkspaceID)
			continue
		}
		c.hashes = append(c.hashes, sum)
	}
	c.verified = make([]atomic.Pointer[string], len(c.hashes))
	c.principal = internalauth.Workspace(rec.WorkspaceID)
	c.signed.Store(signPrincipal(s.signer, c.principal, now))
	return c
}

// store keeps c for ttl; with ttl 0 nothing is kept in process.
func (s *credentialStore) store(apiKey string, c *credential) {
	if s.ttl <= 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old := s.entries[apiKey]; old != nil {
		// A refresh is no use of the key: only requests keep it warm.
		c.lastUsed.Store(old.lastUsed.Load())
	} else if len(s.entries) >= maxCachedKeys {
		s.evictExpiredLocked()
	}
	s.entries[apiKey] = c
}

// evictExpiredLocked drops expired entries, or all of them when a flood of
// live ones fills the cache (they refill from Redis).
func (s *credentialStore) evictExpiredLocked() {
	now := s.now().UnixNano()
	for k, c := range s.entries {
		if now >= c.expires.Load() {
			delete(s.entries, k)
		}
	}
	if len(s.entries) >= maxCachedKeys {
		s.entries = make(map[string]*credential)
	}
}
