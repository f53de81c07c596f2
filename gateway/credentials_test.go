package gateway

import (
	"context"
	"math"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
)

// fakeClock is a settable clock for cache expiry.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{t: time.Unix(1_700_000_000, 0)} }

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func TestWarmCredentialCostsNoRoundTrip(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.RateLimitPerSecond = 0 })
	clk := newFakeClock()
	e.gw.creds.now = clk.now

	resp, raw := e.post("/v2/users/get", `{"data":{}}`, creds...)
	wantService(t, resp, raw, svcIdentity)
	if n := e.workspace.lookups.Load(); n != 1 {
		t.Fatalf("cold key: %d lookups, want 1", n)
	}
	if !e.mr.Exists(internalauth.CredentialCacheKey(testKey)) {
		t.Fatal("lookup not stored in Redis")
	}

	redisCmds := e.mr.CommandCount()
	for range 10 {
		resp, raw := e.post("/v2/users/get", `{"data":{}}`, creds...)
		wantService(t, resp, raw, svcIdentity)
	}
	if n := e.workspace.lookups.Load(); n != 1 {
		t.Fatalf("warm key: %d lookups, want 1", n)
	}
	if n := e.mr.CommandCount() - redisCmds; n != 0 {
		t.Fatalf("warm key: %d Redis commands, want 0", n)
	}

	// Past the in-process TTL the entry comes back from Redis, not from
	// svc-workspace.
	clk.advance(2 * time.Second)
	resp, raw = e.post("/v2/users/get", `{"data":{}}`, creds...)
	wantService(t, resp, raw, svcIdentity)
	if n := e.workspace.lookups.Load(); n != 1 {
		t.Fatalf("after TTL: %d lookups, want 1 (Redis should answer)", n)
	}
}

func TestTokenResetTakesEffectAfterTTL(t *testing.T) {
	e := newEnv(t, nil)
	clk := newFakeClock()
	e.gw.creds.now = clk.now
	resp, raw := e.post("/v2/users/get", `{"data":{}}`, creds...)
	wantService(t, resp, raw, svcIdentity)

	// What svc-workspace does on reset: new hashes, then a tombstone.
	e.resetTokens(t, "token-new")
	clk.advance(e.gw.creds.ttl + time.Millisecond)

	resp, raw = e.post("/v2/users/get", `{"data":{}}`, creds...)
	wantError(t, resp, raw, api.PermissionDenied)
	resp, raw = e.post("/v2/users/get", `{"data":{}}`, "x-svc-api-key", testKey, "x-svc-auth-token", "token-new")
	wantService(t, resp, raw, svcIdentity)
	if n := e.workspace.lookups.Load(); n != 2 {
		t.Fatalf("%d lookups, want 2 (the tombstone is a miss)", n)
	}

	// The lookup after the reset replaced the tombstone: past the TTL again,
	// Redis answers.
	clk.advance(e.gw.creds.ttl + time.Millisecond)
	resp, raw = e.post("/v2/users/get", `{"data":{}}`, "x-svc-api-key", testKey, "x-svc-auth-token", "token-new")
	wantService(t, resp, raw, svcIdentity)
	if n := e.workspace.lookups.Load(); n != 2 {
		t.Fatalf("%d lookups, want 2 (Redis should answer)", n)
	}
}

// The race tombstones close: a reset lands while a lookup is in flight,
// after svc-workspace read the old tokens. The gateway must not write that
// stale answer to Redis, so once the in-process entry expires the revoked
// token is refused instead of living on for redisCredentialTTL.
func TestResetDuringLookupIsNotCachedStale(t *testing.T) {
	e := newEnv(t, nil)
	clk := newFakeClock()
	e.gw.creds.now = clk.now
	var once sync.Once
	e.workspace.setDuringLookup(func(string) {
		once.Do(func() { e.resetTokens(t, "token-new") })
	})

	// The request that raced the reset used the answer read before it.
	resp, raw := e.post("/v2/users/get", `{"data":{}}`, creds...)
	wantService(t, resp, raw, svcIdentity)
	_, observed, hit, err := internalauth.ReadCachedCredentials(t.Context(), e.gw.creds.rdb, testKey)
	if err != nil || hit || observed == "" {
		t.Fatalf("Redis after the raced lookup: %q, hit %v, %v; want the reset's tombstone", observed, hit, err)
	}

	clk.advance(e.gw.creds.ttl + time.Millisecond)
	resp, raw = e.post("/v2/users/get", `{"data":{}}`, creds...)
	wantError(t, resp, raw, api.PermissionDenied)
	resp, raw = e.post("/v2/users/get", `{"data":{}}`, "x-svc-api-key", testKey, "x-svc-auth-token", "token-new")
	wantService(t, resp, raw, svcIdentity)
	if n := e.workspace.lookups.Load(); n != 2 {
		t.Fatalf("%d lookups, want 2", n)
	}
}

// resetTokens does what svc-workspace does on a token change: new hashes
// in its store, then a tombstone in the shared cache.
func (e *env) resetTokens(t *testing.T, tokens ...string) {
	t.Helper()
	e.workspace.setTokens(testKey, "ws1", tokens...)
	if err := internalauth.InvalidateCredentials(context.Background(), e.gw.creds.rdb, testKey); err != nil {
		t.Error(err)
	}
}

// The same with the real clock: a revoked token stops working once the
// short in-process TTL has run out.
func TestRevokedTokenRefusedWithRealClock(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.AuthCacheTTL = 50 * time.Millisecond })
	resp, raw := e.post("/v2/users/get", `{"data":{}}`, creds...)
	wantService(t, resp, raw, svcIdentity)

	e.resetTokens(t, "token-new")

	deadline := time.Now().Add(5 * time.Second)
	for {
		resp, _ := e.post("/v2/users/get", `{"data":{}}`, creds...)
		if resp.StatusCode == http.StatusForbidden {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("revoked token still accepted")
		}
		time.Sleep(5 * time.Millisecond)
	}
	resp, raw = e.post("/v2/users/get", `{"data":{}}`, "x-svc-api-key", testKey, "x-svc-auth-token", "token-new")
	wantService(t, resp, raw, svcIdentity)
}

func TestColdKeyIsLookedUpOnce(t *testing.T) {
	e := newEnv(t, nil)
	var wg sync.WaitGroup
	codes := make(chan int, 20)
	for range 20 {
		wg.Go(func() {
			req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/v2/users/get", nil)
			req.Header.Set("x-svc-api-key", testKey)
			req.Header.Set("x-svc-auth-token", testToken)
			resp, err := e.srv.Client().Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			codes <- resp.StatusCode
		})
	}
	wg.Wait()
	close(codes)
	for c := range codes {
		if c != http.StatusOK {
			t.Fatalf("status %d", c)
		}
	}
	if n := e.workspace.lookups.Load(); n != 1 {
		t.Fatalf("%d lookups for one cold key, want 1", n)
	}
}

func TestUnknownKeyIsCachedInProcessOnly(t *testing.T) {
	e := newEnv(t, nil)
	e.gw.creds.now = newFakeClock().now
	for range 5 {
		resp, raw := e.post("/v2/users/get", `{"data":{}}`, "x-svc-api-key", "ghost", "x-svc-auth-token", "t")
		wantError(t, resp, raw, api.PermissionDenied)
	}
	if n := e.workspace.lookups.Load(); n != 1 {
		t.Fatalf("%d lookups, want 1", n)
	}
	if e.mr.Exists(internalauth.CredentialCacheKey("ghost")) {
		t.Fatal("negative lookup written to Redis")
	}
}

func TestRedisDownStillServes(t *testing.T) {
	e := newEnv(t, nil)
	e.mr.Close()
	resp, raw := e.post("/v2/users/get", `{"data":{}}`, creds...)
	wantService(t, resp, raw, svcIdentity)
}

func TestAcceptsUsesHashToken(t *testing.T) {
	s := newCredentialStore(nil, newRedisGuard(), nil, internalauth.NewSigner(testSecret), time.Second, discardLogger())
	c := s.newCredential(credentialRecord{
		WorkspaceID: "ws",
		TokenHashes: []string{internalauth.HashToken("one"), "not-hex", internalauth.HashToken("two")},
	}, true)
	for tok, want := range map[string]bool{"one": true, "two": true, "three": false, "": false} {
		if got := c.accepts(tok); got != want {
			t.Errorf("accepts(%q) = %v, want %v", tok, got, want)
		}
	}
	if p, err := s.signer.Verify(http.Header{
		internalauth.HeaderPrincipal: c.current().principal,
		internalauth.HeaderTimestamp: c.current().timestamp,
		internalauth.HeaderSignature: c.current().signature,
	}); err != nil || p != internalauth.Workspace("ws") {
		t.Fatalf("signed principal %q, %v", p, err)
	}
	if s.newCredential(credentialRecord{}, false).accepts("one") {
		t.Fatal("unknown key accepted a token")
	}
}

// blockingLookup is a svc-workspace stand-in that holds every lookup until
// released.
type blockingLookup struct {
	calls   atomic.Int64
	release chan struct{}
}

func (b *blockingLookup) Call(_ context.Context, _, _ string, in, out any) error {
	b.calls.Add(1)
	<-b.release
	*out.(*credentialRecord) = credentialRecord{WorkspaceID: "ws", TokenHashes: []string{internalauth.HashToken("tok")}}
	return nil
}

// Concurrent requests for one cold key share a single lookup. synctest
// waits until every goroutine is blocked (one in the lookup, the rest in
// the singleflight) before counting, so no timing is involved.
func TestConcurrentColdLookupsShareOne(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lookup := &blockingLookup{release: make(chan struct{})}
		guard := newRedisGuard()
		guard.openUntil.Store(math.MaxInt64) // Redis skipped: lookups only
		s := newCredentialStore(nil, guard, lookup, internalauth.NewSigner(testSecret), time.Second, discardLogger())
		var wg sync.WaitGroup
		for range 10 {
			wg.Go(func() {
				c, err := s.resolve(t.Context(), "key")
				if err != nil || !c.accepts("tok") {
					t.Errorf("resolve: %v", err)
				}
			})
		}
		synctest.Wait()
		if n := lookup.calls.Load(); n != 1 {
			t.Errorf("%d lookups in flight, want 1", n)
		}
		close(lookup.release)
		wg.Wait()
	})
}

// A token created while the key is warm in process works at once: the
// refusal by the cached entry triggers one recheck, which sees the new
// token because svc-workspace tombstoned the shared entry.
func TestNewTokenAcceptedWhileKeyIsWarm(t *testing.T) {
	e := newEnv(t, nil)
	clk := newFakeClock()
	e.gw.creds.now = clk.now
	resp, raw := e.post("/v2/users/get", `{"data":{}}`, creds...)
	wantService(t, resp, raw, svcIdentity)

	e.resetTokens(t, testToken, "token-added") // a create keeps the old one
	resp, raw = e.post("/v2/users/get", `{"data":{}}`, "x-svc-api-key", testKey, "x-svc-auth-token", "token-added")
	wantService(t, resp, raw, svcIdentity)
	resp, raw = e.post("/v2/users/get", `{"data":{}}`, creds...)
	wantService(t, resp, raw, svcIdentity)

	// A bad token rechecks against Redis, not svc-workspace.
	before := e.workspace.lookups.Load()
	resp, raw = e.post("/v2/users/get", `{"data":{}}`, "x-svc-api-key", testKey, "x-svc-auth-token", "nope")
	wantError(t, resp, raw, api.PermissionDenied)
	if n := e.workspace.lookups.Load(); n != before {
		t.Fatalf("bad token caused %d workspace lookups, want 0", n-before)
	}
}
