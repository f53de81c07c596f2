package internalauth

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

func newCacheRedis(t *testing.T) (*miniredis.Miniredis, *redis.Client) {
	t.Helper()
	mr := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	t.Cleanup(func() { _ = rdb.Close() })
	return mr, rdb
}

// The race the tombstones close, step by step: a lookup that started before
// an invalidation must not be cached; one that started after must be.
func TestInvalidationDuringLookupRefusesStaleWrite(t *testing.T) {
	ctx := context.Background()
	mr, rdb := newCacheRedis(t)
	const apiKey = "key"
	key := CredentialCacheKey(apiKey)

	// Gateway misses and starts a lookup, which reads the old tokens.
	_, observed, hit, err := ReadCachedCredentials(ctx, rdb, apiKey)
	if err != nil || hit || observed != "" {
		t.Fatalf("empty cache read: observed %q, hit %v, %v", observed, hit, err)
	}
	// svc-workspace revokes a token meanwhile.
	if err := InvalidateCredentials(ctx, rdb, apiKey); err != nil {
		t.Fatal(err)
	}
	tomb, _ := mr.Get(key)
	stored, err := CacheCredentials(ctx, rdb, apiKey, observed, []byte(`{"old":true}`), CredentialCacheTTL)
	if err != nil || stored {
		t.Fatalf("stale write: stored %v, %v; want refused", stored, err)
	}
	if got, _ := mr.Get(key); got != tomb || !strings.HasPrefix(got, tombstonePrefix) {
		t.Fatalf("after refused write the key holds %q, want the tombstone %q", got, tomb)
	}
	if ttl := mr.TTL(key); ttl != CredentialCacheTTL {
		t.Fatalf("tombstone TTL %v, want %v", ttl, CredentialCacheTTL)
	}

	// The next lookup starts after the invalidation: the tombstone is a miss
	// and the fresh result replaces it.
	_, observed, hit, err = ReadCachedCredentials(ctx, rdb, apiKey)
	if err != nil || hit || observed != tomb {
		t.Fatalf("tombstone read: observed %q, hit %v, %v", observed, hit, err)
	}
	stored, err = CacheCredentials(ctx, rdb, apiKey, observed, []byte(`{"new":true}`), time.Minute)
	if err != nil || !stored {
		t.Fatalf("fresh write: stored %v, %v; want stored", stored, err)
	}
	value, _, hit, err := ReadCachedCredentials(ctx, rdb, apiKey)
	if err != nil || !hit || string(value) != `{"new":true}` {
		t.Fatalf("read after fresh write: %q, hit %v, %v", value, hit, err)
	}
	if ttl := mr.TTL(key); ttl != time.Minute {
		t.Fatalf("cached TTL %v, want %v", ttl, time.Minute)
	}
}

func TestCacheCredentialsComparesObservedValue(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name     string
		current  string // "" leaves the key absent
		observed string
		want     bool
	}{
		{"absent, saw absent", "", "", true},
		{"absent, saw a tombstone that expired", "", "tomb:1:a", false},
		{"tombstone, saw absent", "tomb:1:a", "", false},
		{"same tombstone", "tomb:1:a", "tomb:1:a", true},
		{"newer tombstone", "tomb:2:b", "tomb:1:a", false},
		{"value, saw it", `{"v":1}`, `{"v":1}`, true},
		{"value, saw absent", `{"v":1}`, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mr, rdb := newCacheRedis(t)
			key := CredentialCacheKey("key")
			if tt.current != "" {
				if err := mr.Set(key, tt.current); err != nil {
					t.Fatal(err)
				}
			}
			stored, err := CacheCredentials(ctx, rdb, "key", tt.observed, []byte(`{"v":2}`), time.Minute)
			if err != nil || stored != tt.want {
				t.Fatalf("stored %v, %v; want %v", stored, err, tt.want)
			}
			got, _ := mr.Get(key)
			want := tt.current
			if tt.want {
				want = `{"v":2}`
			}
			if got != want {
				t.Fatalf("key holds %q, want %q", got, want)
			}
		})
	}
}

func TestTombstonesAreUnique(t *testing.T) {
	ctx := context.Background()
	mr, rdb := newCacheRedis(t)
	seen := map[string]bool{}
	for range 3 {
		if err := InvalidateCredentials(ctx, rdb, "key"); err != nil {
			t.Fatal(err)
		}
		tomb, _ := mr.Get(CredentialCacheKey("key"))
		if seen[tomb] || !strings.HasPrefix(tomb, tombstonePrefix) {
			t.Fatalf("tombstone %q repeated or malformed", tomb)
		}
		seen[tomb] = true
	}
}

func TestCredentialCacheRedisDown(t *testing.T) {
	ctx := context.Background()
	mr := miniredis.RunT(t)
	// No retries: each call fails at once instead of backing off.
	rdb := redis.NewClient(&redis.Options{Addr: mr.Addr(), MaxRetries: -1})
	t.Cleanup(func() { _ = rdb.Close() })
	mr.Close()
	if _, _, _, err := ReadCachedCredentials(ctx, rdb, "key"); err == nil {
		t.Error("read without Redis: no error")
	}
	if stored, err := CacheCredentials(ctx, rdb, "key", "", []byte("{}"), time.Minute); err == nil || stored {
		t.Errorf("write without Redis: stored %v, %v", stored, err)
	}
	if err := InvalidateCredentials(ctx, rdb, "key"); err == nil {
		t.Error("invalidate without Redis: no error")
	}
}
