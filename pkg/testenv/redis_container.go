package testenv

import (
	"context"
	"testing"

	"github.com/testcontainers/testcontainers-go"
	tcredis "github.com/testcontainers/testcontainers-go/modules/redis"
)

const redisImage = "redis:7-alpine"

// startRedisContainer gives t its own container: slower than a shared one,
// but a test can never see another test's keys.
func startRedisContainer(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), containerBudget)
	defer cancel()
	c, err := tcredis.Run(ctx, redisImage)
	testcontainers.CleanupContainer(t, c)
	if err != nil {
		t.Fatalf("testenv: redis container: %v", err)
	}
	url, err := c.ConnectionString(ctx)
	if err != nil {
		t.Fatalf("testenv: redis container: %v", err)
	}
	return url
}
