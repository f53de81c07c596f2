package store_test

import (
	"context"
	"testing"

	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-workspace/internal/store"
)

// Invalidate leaves a tombstone, not an empty key: a gateway lookup that
// read the entry before the invalidation must fail to write it back.
func TestInvalidateLeavesTombstone(t *testing.T) {
	ctx := context.Background()
	rdb := testenv.Redis(t)
	cache := store.NewCredentialCache(rdb)
	key := internalauth.CredentialCacheKey("ak_1")

	tests := []struct {
		name   string
		before string // "" leaves the key absent
	}{
		{"absent", ""},
		{"cached lookup", `{"workspaceId":"ws_1","tokenHashes":[]}`},
		{"earlier tombstone", "tomb:1:a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rdb.Del(ctx, key)
			if tt.before != "" {
				rdb.Set(ctx, key, tt.before, 0)
			}
			// A gateway lookup starts here.
			_, observed, _, err := internalauth.ReadCachedCredentials(ctx, rdb, "ak_1")
			if err != nil {
				t.Fatal(err)
			}
			if err := cache.Invalidate(ctx, "ak_1"); err != nil {
				t.Fatal(err)
			}
			_, tomb, hit, err := internalauth.ReadCachedCredentials(ctx, rdb, "ak_1")
			if err != nil || hit || tomb == "" || tomb == tt.before {
				t.Fatalf("after Invalidate: raw %q, hit %v, %v; want a new tombstone", tomb, hit, err)
			}
			if ttl := rdb.PTTL(ctx, key).Val(); ttl <= 0 || ttl > internalauth.CredentialCacheTTL {
				t.Fatalf("tombstone TTL %v, want (0, %v]", ttl, internalauth.CredentialCacheTTL)
			}
			stored, err := internalauth.CacheCredentials(ctx, rdb, "ak_1", observed, []byte(`{"stale":true}`), internalauth.CredentialCacheTTL)
			if err != nil || stored {
				t.Fatalf("stale write after Invalidate: stored %v, %v", stored, err)
			}
		})
	}
	if err := cache.Ping(ctx); err != nil {
		t.Fatalf("Ping: %v", err)
	}
}
