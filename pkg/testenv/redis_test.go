package testenv

import (
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/opencollab/backend/pkg/redisdb"
)

func TestRedisIsPerTest(t *testing.T) {
	if os.Getenv(EnvRedisURL) != "" {
		t.Skip("TEST_REDIS_URL names a shared server")
	}
	t.Run("writer", func(t *testing.T) {
		if err := Redis(t).Set(t.Context(), "shared-key", "x", 0).Err(); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("reader", func(t *testing.T) {
		err := Redis(t).Get(t.Context(), "shared-key").Err()
		if err != redis.Nil {
			t.Fatalf("another test's key is visible (err %v)", err)
		}
	})
}

func TestRedisAndRedisURLAgree(t *testing.T) {
	c := Redis(t)
	key := "agree:" + randomHex(t, 4)
	if err := c.Set(t.Context(), key, "v", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	other, err := redisdb.Connect(t.Context(), RedisURL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if got, err := other.Get(t.Context(), key).Result(); err != nil || got != "v" {
		t.Fatalf("RedisURL names another server: got %q, err %v", got, err)
	}
}

// TestRedisBackends exercises each per-test fallback regardless of which one
// this machine would choose.
func TestRedisBackends(t *testing.T) {
	bin, lookErr := exec.LookPath("redis-server")
	tests := []struct {
		name    string
		start   redisBackend
		missing bool
	}{
		{"redis-server", func(t testing.TB) string { return startRedisServer(t, bin) }, lookErr != nil},
		{"miniredis", startMiniredis, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.missing {
				t.Skip("not installed")
			}
			var url string
			t.Run("use", func(t *testing.T) {
				url = tt.start(t)
				c, err := redisdb.Connect(t.Context(), url)
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				if n, err := c.DBSize(t.Context()).Result(); err != nil || n != 0 {
					t.Fatalf("fresh server has %d keys (err %v)", n, err)
				}
			})
			// The server must be gone once its test has ended.
			if _, err := serverPID(url[len("redis://"):]); err == nil {
				t.Fatalf("%s still answers after cleanup", url)
			}
		})
	}
}

func TestDockerProbeIsQuick(t *testing.T) {
	start := time.Now()
	err := probeDocker()
	if d := time.Since(start); d > dockerProbeTimeout+2*time.Second {
		t.Fatalf("docker probe took %v (err %v)", d, err)
	}
	t.Logf("docker probe: err=%v in %v", err, time.Since(start))
}

// A redis-server started on a port another server took meanwhile is not
// mistaken for that one: the start fails (and is retried on a new port)
// instead of handing the test a server that ends with someone else's test.
func TestRedisServerOnATakenPortIsNotTheOtherServer(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redis-server not installed")
	}
	other := startRedisServer(t, bin) // answers PING as ours would
	if err := spawnRedis(t, bin, other[len("redis://"):]); err == nil {
		t.Fatalf("started on %s, which another redis-server holds; want an error", other)
	}
}
