package testenv

import (
	"context"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/opencollab/backend/pkg/embedded"
	"github.com/opencollab/backend/pkg/redisdb"
)

// redisBackend starts (or names) a Redis for one test.
type redisBackend func(t testing.TB) string

var (
	redisOnce    sync.Once
	redisStarter redisBackend
	redisURLs    sync.Map // testing.TB -> string, so Redis and RedisURL agree
)

// RedisURL returns the Redis for t: $TEST_REDIS_URL (shared with other
// tests, so namespace your keys), else a fresh server for this test from
// testcontainers, a local redis-server, or in-process miniredis, in that
// order of preference. Calls within one test return the same server.
func RedisURL(t testing.TB) string {
	t.Helper()
	if url, ok := redisURLs.Load(t); ok {
		return url.(string)
	}
	redisOnce.Do(chooseRedis)
	url := redisStarter(t)
	redisURLs.Store(t, url)
	t.Cleanup(func() { redisURLs.Delete(t) })
	return url
}

// Redis returns a client for RedisURL(t), closed when t ends. It never
// flushes: on a shared server that would wipe other tests' keys.
func Redis(t testing.TB) *redis.Client {
	t.Helper()
	c, err := redisdb.Connect(context.Background(), RedisURL(t))
	if err != nil {
		t.Fatalf("testenv: redis: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func chooseRedis() {
	if url := os.Getenv(EnvRedisURL); url != "" {
		logBackend("redis", "env "+EnvRedisURL+" (shared)", redactURI(url))
		redisStarter = func(testing.TB) string { return url }
		return
	}
	if dockerAvailable() {
		logBackend("redis", "testcontainers (per test)", redisImage)
		redisStarter = startRedisContainer
		return
	}
	if bin, err := exec.LookPath("redis-server"); err == nil {
		logBackend("redis", "redis-server (per test)", bin)
		redisStarter = func(t testing.TB) string { return startRedisServer(t, bin) }
		return
	}
	logBackend("redis", "miniredis (per test)", "in process")
	redisStarter = startMiniredis
}

func startMiniredis(t testing.TB) string {
	t.Helper()
	url, stop, err := embedded.StartRedis()
	if err != nil {
		t.Fatalf("testenv: %v", err)
	}
	t.Cleanup(stop)
	return url
}

// DeadRedis returns a client for a loopback port nobody listens on, failing
// fast: Redis down, as the services see it. Closed when t ends.
func DeadRedis(t testing.TB) *redis.Client {
	t.Helper()
	addr, err := deadAddr(t)
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(&redis.Options{Addr: addr, DialTimeout: 200 * time.Millisecond, MaxRetries: -1})
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// OtherRedis returns a client of an in-process Redis of its own, apart
// from Redis(t)'s: for replicas whose pub/sub must never meet. Both are
// closed when t ends.
func OtherRedis(t testing.TB) *redis.Client {
	t.Helper()
	url, stop, err := embedded.StartRedis()
	if err != nil {
		t.Fatalf("testenv: other redis: %v", err)
	}
	t.Cleanup(stop)
	c, err := redisdb.Connect(context.Background(), url)
	if err != nil {
		t.Fatalf("testenv: other redis: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}
