package internalauth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// CredentialCacheTTL is how long a cached credential lookup, and the
// tombstone left by an invalidation, lives in Redis.
const CredentialCacheTTL = 5 * time.Minute

// tombstonePrefix marks an invalidated entry. Cached lookups are JSON
// objects, so they never start with it.
const tombstonePrefix = "tomb:"

// The gateway caches the credential lookup of an API key under
// CredentialCacheKey, and svc-workspace invalidates it whenever the key's
// tokens change. A plain DEL would race with a lookup in flight: the
// gateway reads the old tokens from svc-workspace, the reset DELs the key,
// then the gateway writes the old tokens back for the whole TTL. Instead an
// invalidation writes a unique tombstone, and the gateway writes a lookup
// back only if the key still holds exactly what it read before the lookup
// (compare-and-set). Any invalidation in between changed that value, so the
// stale write is refused.

// casScript sets KEYS[1] to ARGV[2] for ARGV[3] milliseconds only if its
// value is still ARGV[1] ("" standing for an absent key).
var casScript = redis.NewScript(`
local current = redis.call('GET', KEYS[1])
if current == false then current = '' end
if current ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
`)

// CredentialCacheKey is the Redis key under which the gateway caches the
// credential lookup of an API key. svc-workspace invalidates it whenever
// the key's tokens change, so a reset reaches every gateway replica at once.
func CredentialCacheKey(apiKey string) string {
	return "cred:" + HashToken(apiKey)
}

// InvalidateCredentials replaces the cached lookup of apiKey by a fresh
// tombstone. Lookups that started before it can no longer be cached (see
// CacheCredentials); the tombstone's TTL outlives any such lookup.
func InvalidateCredentials(ctx context.Context, rdb redis.Cmdable, apiKey string) error {
	if err := rdb.Set(ctx, CredentialCacheKey(apiKey), newTombstone(), CredentialCacheTTL).Err(); err != nil {
		return fmt.Errorf("redis set credential tombstone: %w", err)
	}
	return nil
}

// ReadCachedCredentials reads the cached lookup of apiKey. hit is false
// when the key is absent or holds a tombstone. observed is the raw content
// seen ("" when absent); pass it to CacheCredentials after the lookup.
func ReadCachedCredentials(ctx context.Context, rdb redis.Cmdable, apiKey string) (value []byte, observed string, hit bool, err error) {
	raw, err := rdb.Get(ctx, CredentialCacheKey(apiKey)).Result()
	if errors.Is(err, redis.Nil) {
		return nil, "", false, nil
	}
	if err != nil {
		return nil, "", false, fmt.Errorf("redis get cached credentials: %w", err)
	}
	if strings.HasPrefix(raw, tombstonePrefix) {
		return nil, raw, false, nil
	}
	return []byte(raw), raw, true, nil
}

// CacheCredentials stores value as the cached lookup of apiKey for ttl,
// only if the key still holds observed (as returned by the
// ReadCachedCredentials that preceded the lookup). stored is false when an
// invalidation (or another writer) got there first; the value is then
// dropped, which only costs a later lookup.
func CacheCredentials(ctx context.Context, rdb redis.Cmdable, apiKey, observed string, value []byte, ttl time.Duration) (stored bool, err error) {
	if ttl < time.Millisecond {
		return false, fmt.Errorf("cache credentials: ttl %v is below the 1ms resolution", ttl)
	}
	n, err := casScript.Run(ctx, rdb, []string{CredentialCacheKey(apiKey)}, observed, value, ttl.Milliseconds()).Int()
	if err != nil {
		return false, fmt.Errorf("redis compare-and-set cached credentials: %w", err)
	}
	return n == 1, nil
}

// newTombstone is unique per invalidation, so a lookup that observed one
// tombstone cannot mistake a later one for it.
func newTombstone() string {
	return tombstonePrefix + strconv.FormatInt(time.Now().UnixNano(), 10) + ":" + rand.Text()
}

// HashToken is the SHA-256 hex digest under which secrets (auth tokens) are
// stored and compared.
func HashToken(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
