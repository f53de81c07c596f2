package gateway

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func fixedClock(sec int64) func() time.Time {
	return func() time.Time { return time.Unix(sec, 0) }
}

func newTestLimiter(t *testing.T, mr *miniredis.Miniredis, limit int64, clk *fakeClock) *rateLimiter {
	t.Helper()
	rdb := redis.NewClient(&redis.Options{Addr: mr.Addr(), MaxRetries: -1})
	t.Cleanup(func() { _ = rdb.Close() })
	l := newRateLimiter(rdb, newRedisGuard(), limit, discardLogger())
	l.now = clk.now
	return l
}

// allowed counts how many of n requests of key l lets through.
func allowed(l *rateLimiter, key string, n int) int {
	ok := 0
	for range n {
		if l.allow(context.Background(), key) {
			ok++
		}
	}
	return ok
}

func TestRateLimiterWindow(t *testing.T) {
	tests := []struct {
		limit int64
		chunk int64
	}{
		{1, 1}, {5, 1}, {10, 1}, {25, 2}, {100, 10}, {1000, 100},
	}
	for _, tt := range tests {
		mr := miniredis.RunT(t)
		clk := newFakeClock()
		l := newTestLimiter(t, mr, tt.limit, clk)
		if l.chunk != tt.chunk {
			t.Fatalf("limit %d: chunk %d, want %d", tt.limit, l.chunk, tt.chunk)
		}
		if got := allowed(l, "k", int(tt.limit)*2); got != int(tt.limit) {
			t.Fatalf("limit %d: allowed %d in one window", tt.limit, got)
		}
		if got := allowed(l, "other", int(tt.limit)); got != int(tt.limit) {
			t.Fatalf("limit %d: another key shares the quota (%d)", tt.limit, got)
		}
		clk.advance(time.Second)
		if got := allowed(l, "k", int(tt.limit)*2); got != int(tt.limit) {
			t.Fatalf("limit %d: allowed %d in the next window", tt.limit, got)
		}
	}
}

// Two replicas share one Redis: together they never exceed the limit, and
// when both keep asking they get all of it.
func TestRateLimiterAcrossReplicas(t *testing.T) {
	mr := miniredis.RunT(t)
	clk := newFakeClock()
	a, b := newTestLimiter(t, mr, 100, clk), newTestLimiter(t, mr, 100, clk)
	total := 0
	for range 300 {
		if a.allow(context.Background(), "k") {
			total++
		}
		if b.allow(context.Background(), "k") {
			total++
		}
	}
	if total != 100 {
		t.Fatalf("replicas allowed %d together, want 100", total)
	}
}

// A replica that leased quota and went quiet takes it with it: the other
// replica is refused early, never late.
func TestRateLimiterUnspentLeaseIsUndershoot(t *testing.T) {
	mr := miniredis.RunT(t)
	clk := newFakeClock()
	a, b := newTestLimiter(t, mr, 100, clk), newTestLimiter(t, mr, 100, clk)
	if !a.allow(context.Background(), "k") { // leases 10, spends 1
		t.Fatal("first request refused")
	}
	if got := allowed(b, "k", 200); got != 90 {
		t.Fatalf("second replica allowed %d, want 90", got)
	}
}

func TestRateLimiterFailsOpenPerReplica(t *testing.T) {
	mr := miniredis.RunT(t)
	clk := newFakeClock()
	l := newTestLimiter(t, mr, 20, clk)
	mr.Close()
	if got := allowed(l, "k", 50); got != 20 {
		t.Fatalf("with Redis down allowed %d, want the limit (20) per replica", got)
	}
	clk.advance(time.Second)
	if got := allowed(l, "k", 5); got != 5 {
		t.Fatalf("next window with Redis down allowed %d", got)
	}
}

func TestRateLimiterKeepsAPIKeysOutOfRedis(t *testing.T) {
	mr := miniredis.RunT(t)
	l := newTestLimiter(t, mr, 10, newFakeClock())
	l.allow(context.Background(), "secret-api-key")
	keys := mr.Keys()
	if len(keys) != 1 {
		t.Fatalf("keys %v", keys)
	}
	for _, k := range keys {
		if k == "" || containsFold(k, "secret-api-key") {
			t.Fatalf("API key in Redis key %q", k)
		}
		if ttl := mr.TTL(k); ttl <= 0 || ttl > windowKeyTTL {
			t.Fatalf("key %q has TTL %s", k, ttl)
		}
	}
}

func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}
