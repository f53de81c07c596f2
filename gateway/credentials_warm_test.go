package gateway

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
)

// warmEnv is a gateway whose keeper rounds the test runs itself, on a fake
// clock; keys stay warm for warmFor after their last request.
func warmEnv(t *testing.T, warmFor time.Duration) (*env, *fakeClock) {
	t.Helper()
	e := newEnv(t, func(c *Config) { c.RateLimitPerSecond = 0 })
	clk := newFakeClock()
	e.gw.creds.now = clk.now
	e.gw.creds.warmFor = warmFor
	resp, raw := e.post("/v2/users/get", `{"data":{}}`, creds...)
	wantService(t, resp, raw, svcIdentity)
	return e, clk
}

// entry is the in-process entry of apiKey.
func (e *env) entry(apiKey string) *credential {
	e.gw.creds.mu.RLock()
	defer e.gw.creds.mu.RUnlock()
	return e.gw.creds.entries[apiKey]
}

// A key called less often than the TTL is still answered from process:
// the keeper's rounds confirmed its Redis entry meanwhile.
func TestIdleWarmKeyCostsNoRedisRead(t *testing.T) {
	t.Parallel()
	e, clk := warmEnv(t, time.Minute)
	first := e.entry(testKey)
	signed := first.current()
	for range 3 {
		clk.advance(600 * time.Millisecond)
		if stale := e.gw.creds.confirmWarm(t.Context()); len(stale) != 0 {
			t.Fatalf("round found %q stale, want none", stale)
		}
	}

	// 1.8 s after the lookup, past the 1 s TTL.
	cmds := e.mr.CommandCount()
	resp, raw := e.post("/v2/users/get", `{"data":{}}`, creds...)
	wantService(t, resp, raw, svcIdentity)
	if n := e.mr.CommandCount() - cmds; n != 0 {
		t.Fatalf("request after 1.8 s idle: %d Redis commands, want 0", n)
	}
	if n := e.workspace.lookups.Load(); n != 1 {
		t.Fatalf("%d lookups, want 1", n)
	}
	if e.entry(testKey) != first {
		t.Fatal("the entry was replaced, not extended")
	}
	p := first.current()
	if p == signed {
		t.Fatal("the principal was not signed again for the extended life")
	}
	got, err := e.signer.Verify(http.Header{
		internalauth.HeaderPrincipal: p.principal, internalauth.HeaderTimestamp: p.timestamp, internalauth.HeaderSignature: p.signature,
	})
	if err != nil || got != internalauth.Workspace("ws1") {
		t.Fatalf("re-signed principal %q, %v", got, err)
	}
}

// A reset tombstones the Redis entry: the keeper stops extending, and the
// revoked token is refused once the last confirmed TTL has run out.
func TestWarmKeyHonoursTheResetDeadline(t *testing.T) {
	t.Parallel()
	e, clk := warmEnv(t, time.Minute)
	e.resetTokens(t, "token-new")
	clk.advance(600 * time.Millisecond)
	if stale := e.gw.creds.confirmWarm(t.Context()); !slices.Equal(stale, []string{testKey}) {
		t.Fatalf("round after a reset found %q stale, want the reset key", stale)
	}
	clk.advance(600 * time.Millisecond) // 1.2 s after the last confirmed read

	resp, raw := e.post("/v2/users/get", `{"data":{}}`, creds...)
	wantError(t, resp, raw, api.PermissionDenied)
	resp, raw = e.post("/v2/users/get", `{"data":{}}`, "x-svc-api-key", testKey, "x-svc-auth-token", "token-new")
	wantService(t, resp, raw, svcIdentity)
}

// Only keys used within AUTH_CACHE_KEEP_WARM are kept: an idle one lapses
// and its next request reads Redis again.
func TestKeyIdlePastKeepWarmLapses(t *testing.T) {
	t.Parallel()
	e, clk := warmEnv(t, time.Second)
	for range 4 {
		clk.advance(600 * time.Millisecond)
		e.gw.creds.confirmWarm(t.Context())
	}
	cmds := e.mr.CommandCount()
	resp, raw := e.post("/v2/users/get", `{"data":{}}`, creds...)
	wantService(t, resp, raw, svcIdentity)
	if e.mr.CommandCount() == cmds {
		t.Fatal("a key idle for 2.4 s, kept warm for 1 s, was still answered from process")
	}
}

// Redis drops the entry after redisCredentialTTL: the keeper reloads a warm
// key in the background, writes it back, and confirms it from then on,
// without counting the reload as a use of the key.
func TestWarmKeyIsReloadedWhenRedisDropsIt(t *testing.T) {
	t.Parallel()
	e, clk := warmEnv(t, time.Minute)
	used := e.entry(testKey).lastUsed.Load()
	e.mr.Del(internalauth.CredentialCacheKey(testKey))
	clk.advance(600 * time.Millisecond)
	stale := e.gw.creds.confirmWarm(t.Context())
	if !slices.Equal(stale, []string{testKey}) {
		t.Fatalf("round after the Redis entry expired found %q stale, want the key", stale)
	}
	e.gw.creds.refresh(t.Context(), testKey)
	if n := e.workspace.lookups.Load(); n != 2 {
		t.Fatalf("%d lookups, want 2", n)
	}
	if !e.mr.Exists(internalauth.CredentialCacheKey(testKey)) {
		t.Fatal("the reload was not written back to Redis")
	}
	if got := e.entry(testKey).lastUsed.Load(); got != used {
		t.Fatalf("the reload moved the last use from %d to %d", used, got)
	}
	clk.advance(600 * time.Millisecond)
	if stale := e.gw.creds.confirmWarm(t.Context()); len(stale) != 0 {
		t.Fatalf("round after the reload found %q stale, want none", stale)
	}
}

// The keeper New starts runs on the real clock until Close.
func TestKeeperRunsUntilClose(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.RateLimitPerSecond, c.AuthCacheKeepWarm = 0, time.Minute })
	resp, raw := e.post("/v2/users/get", `{"data":{}}`, creds...)
	wantService(t, resp, raw, svcIdentity)
	first := e.entry(testKey)
	time.Sleep(1600 * time.Millisecond) // past the 1 s TTL

	if c := e.entry(testKey); c != first || time.Now().UnixNano() >= c.expires.Load() {
		t.Fatal("the keeper did not keep the entry past its TTL")
	}
	closed := make(chan struct{})
	go func() { e.gw.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not stop the keeper")
	}
}
