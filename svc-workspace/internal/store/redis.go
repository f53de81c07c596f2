package store

import (
	"context"

	"github.com/redis/go-redis/v9"

	"github.com/opencollab/backend/pkg/internalauth"
)

// CredentialCache invalidates the gateway's cached credential lookups.
type CredentialCache struct {
	rdb *redis.Client
}

// NewCredentialCache returns a cache over rdb.
func NewCredentialCache(rdb *redis.Client) *CredentialCache {
	return &CredentialCache{rdb: rdb}
}

// Invalidate implements workspace.CredentialCache. It writes a tombstone
// rather than deleting the entry, so a gateway lookup that read the old
// tokens before this change cannot cache them afterwards.
func (c *CredentialCache) Invalidate(ctx context.Context, apiKey string) error {
	return internalauth.InvalidateCredentials(ctx, c.rdb, apiKey)
}

// Ping checks Redis is reachable (readiness).
func (c *CredentialCache) Ping(ctx context.Context) error {
	return c.rdb.Ping(ctx).Err()
}
