package pagetoken

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/opencollab/backend/pkg/api"
)

// deadRedis returns a client for a loopback port nobody listens on (one
// just closed), failing fast: Redis down, as the services see it. It is
// testenv.DeadRedis without testenv's imports (MongoDB driver, embedded
// stores), which `go test -fuzz` would compile instrumented for FuzzLoad.
func deadRedis(t *testing.T) *redis.Client {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	if err := ln.Close(); err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(&redis.Options{Addr: addr, DialTimeout: 200 * time.Millisecond, MaxRetries: -1})
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func TestRedisDownSealsTokensThatAnyReplicaOpens(t *testing.T) {
	ctx := context.Background()
	q := QueryKey("activities/get", map[string]any{"documentId": "d1"})
	down := New(deadRedis(t), 0).WithSecret("shared")
	tok, err := down.Save(ctx, "ws1", q, "cursor-7")
	if err != nil {
		t.Fatalf("Save with Redis down: %v", err)
	}
	if !strings.HasPrefix(tok, sealedPrefix) || strings.Contains(tok, "cursor-7") {
		t.Fatalf("token %q is not sealed", tok)
	}
	other := New(deadRedis(t), 0).WithSecret("shared") // another replica
	if got, err := other.Load(ctx, "ws1", q, tok); err != nil || got != "cursor-7" {
		t.Fatalf("Load on another replica = %q, %v", got, err)
	}
	stranger := New(deadRedis(t), 0).WithSecret("another secret")
	tampered := tok[:len(tok)-2] + map[bool]string{true: "AA", false: "BB"}[!strings.HasSuffix(tok, "AA")]
	later := New(deadRedis(t), time.Hour).WithSecret("shared")
	later.now = func() time.Time { return time.Now().Add(25 * time.Hour) }
	for name, load := range map[string]func() error{
		"other workspace": func() error { _, err := other.Load(ctx, "ws2", q, tok); return err },
		"other query":     func() error { _, err := other.Load(ctx, "ws1", "q2", tok); return err },
		"other secret":    func() error { _, err := stranger.Load(ctx, "ws1", q, tok); return err },
		"tampered":        func() error { _, err := other.Load(ctx, "ws1", q, tampered); return err },
		"expired":         func() error { _, err := later.Load(ctx, "ws1", q, tok); return err },
	} {
		if err := load(); !api.IsStatus(err, api.InvalidArgument) {
			t.Errorf("%s: err = %v, want INVALID_ARGUMENT", name, err)
		}
	}
}

func TestRedisTokenWhileRedisIsDownIsUnavailable(t *testing.T) {
	ctx := context.Background()
	mr := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: mr.Addr(), MaxRetries: -1})
	s := New(rdb, 0)
	tok, err := s.Save(ctx, "ws1", "q", "c")
	if err != nil || isSealed(tok) {
		t.Fatalf("Save with Redis up = %q, %v; want a Redis token", tok, err)
	}
	mr.Close()
	_, err = s.Load(ctx, "ws1", "q", tok)
	if !api.IsStatus(err, api.Unavailable) {
		t.Fatalf("Load with Redis down: %v, want UNAVAILABLE", err)
	}
	if e, _ := api.AsError(err); !strings.Contains(e.Message, "retry") {
		t.Fatalf("message %q does not say to retry", e.Message)
	}
}

// FuzzLoad feeds outside bytes to Load: whatever the token, the answer is a
// cursor or INVALID_ARGUMENT (UNAVAILABLE if the store stalls on a loaded
// machine), never a panic or another error.
func FuzzLoad(f *testing.F) {
	mr := miniredis.RunT(f)
	s := New(redis.NewClient(&redis.Options{Addr: mr.Addr()}), 0).WithSecret("fuzz")
	ctx := context.Background()
	good, err := s.Save(ctx, "ws1", "q", "c1")
	if err != nil {
		f.Fatal(err)
	}
	sealed, _ := s.seal.seal(entry{Workspace: "ws1", Query: "q", Cursor: "c2", Expires: time.Now().Add(time.Hour).Unix()})
	for _, seed := range []string{good, sealed, "", "s.", "s.AAAA", strings.Repeat("0", 36), "pagetoken:x"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, token string) {
		cursor, err := s.Load(ctx, "ws1", "q", token)
		if err == nil {
			if cursor != "c1" && cursor != "c2" {
				t.Fatalf("token %q opened to cursor %q", token, cursor)
			}
			return
		}
		if !api.IsStatus(err, api.InvalidArgument) && !api.IsStatus(err, api.Unavailable) {
			t.Fatalf("token %q: %v, want INVALID_ARGUMENT", token, err)
		}
	})
}
