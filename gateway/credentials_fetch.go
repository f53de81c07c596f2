package gateway

import (
	"context"
	"encoding/json"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
)

// A cold key is fetched from the Redis cache every replica shares, else
// from svc-workspace, whose answer is written back to Redis unless a token
// change tombstoned the entry meanwhile (pkg/internalauth/credcache.go).

// fetched is what fetch found of an API key.
type fetched struct {
	rec   credentialRecord
	found bool
	// source is rec's entry in Redis as read or written, "" if unknown.
	source string
}

// fetch reads Redis, then asks svc-workspace and fills Redis. A Redis
// failure is logged and bypassed: losing Redis must not lock customers out.
// Unknown keys are not written to Redis: svc-workspace only invalidates the
// key when tokens change, so a negative entry could outlive a new key.
func (s *credentialStore) fetch(ctx context.Context, apiKey string) (fetched, error) {
	cached := s.readCache(ctx, apiKey)
	if cached.hit {
		return fetched{rec: cached.rec, found: true, source: cached.observed}, nil
	}
	var rec credentialRecord
	err := s.lookup.Call(ctx, lookupPath, internalauth.Service("gateway"), map[string]string{"apiKey": apiKey}, &rec)
	if api.IsStatus(err, api.NotFound) {
		return fetched{}, nil
	}
	if err != nil {
		// Not the client's fault: a down or misconfigured svc-workspace.
		s.logger.WarnContext(ctx, "credential lookup failed", "error", err)
		return fetched{}, api.Errorf(api.Unavailable, "credentials cannot be checked right now")
	}
	if rec.WorkspaceID == "" {
		s.logger.WarnContext(ctx, "credential lookup returned no workspace id")
		return fetched{}, nil
	}
	f := fetched{rec: rec, found: true}
	if cached.answered {
		f.source = s.writeCache(ctx, apiKey, cached.observed, rec)
	}
	return f, nil
}

// cacheRead is what one read of the shared Redis cache found.
type cacheRead struct {
	rec credentialRecord
	// hit: rec is a usable cached lookup.
	hit bool
	// answered: Redis was read, so observed is known and a lookup may be
	// written back. Without it the write is skipped.
	answered bool
	// observed is the raw entry seen (a tombstone, an unreadable value, or
	// "" when absent); the write-back succeeds only if it is unchanged.
	observed string
}

// readCache reads the shared Redis cache. A tombstone left by a token
// change counts as a miss.
func (s *credentialStore) readCache(ctx context.Context, apiKey string) cacheRead {
	if !s.guard.available() {
		return cacheRead{}
	}
	rctx, cancel := s.guard.context(ctx)
	defer cancel()
	raw, observed, hit, err := internalauth.ReadCachedCredentials(rctx, s.rdb, apiKey)
	if err != nil {
		s.guard.failed()
		s.logger.WarnContext(ctx, "credential cache unavailable", "error", err)
		return cacheRead{}
	}
	read := cacheRead{answered: true, observed: observed}
	if !hit {
		return read
	}
	if err := json.Unmarshal(raw, &read.rec); err == nil && read.rec.WorkspaceID != "" {
		read.hit = true
		return read
	}
	s.logger.WarnContext(ctx, "credential cache entry unreadable, looking up again", "key", internalauth.CredentialCacheKey(apiKey))
	read.rec = credentialRecord{}
	return read
}

// writeCache stores rec in the shared Redis cache if the entry still holds
// observed. A token change since the read replaced the entry by a new
// tombstone, so rec (possibly read before that change) is dropped rather
// than cached for redisCredentialTTL. Failures only cost a lookup later.
// It returns the entry written, "" when nothing was.
func (s *credentialStore) writeCache(ctx context.Context, apiKey, observed string, rec credentialRecord) string {
	b, err := json.Marshal(rec)
	if err != nil || !s.guard.available() {
		return ""
	}
	rctx, cancel := s.guard.context(ctx)
	defer cancel()
	stored, err := internalauth.CacheCredentials(rctx, s.rdb, apiKey, observed, b, redisCredentialTTL)
	if err != nil {
		s.guard.failed()
		s.logger.WarnContext(ctx, "credential cache write failed", "error", err)
		return ""
	}
	if !stored {
		s.logger.DebugContext(ctx, "credential cache changed during lookup, result not cached")
		return ""
	}
	return string(b)
}
