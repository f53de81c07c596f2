package gateway

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/gin-gonic/gin"
	"github.com/redis/go-redis/v9"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/web"
)

const (
	testSecret   = "internal-secret-for-tests"
	testOperator = "operator-token-for-tests"
	// Workspace ws1's credentials.
	testKey   = "key-ws1"
	testToken = "token-ws1"
)

// seen is what an upstream recorded of one request.
type seen struct {
	Service string
	Path    string
	Header  http.Header
	Body    string
	BodyErr error
}

// upstream is a service stand-in that records what reached it.
type upstream struct {
	name string
	srv  *httptest.Server
	mu   sync.Mutex
	got  []seen
	// quiet stops recording (benchmarks).
	quiet atomic.Bool
}

func newUpstream(t testing.TB, name string) *upstream {
	u := &upstream{name: name}
	u.srv = httptest.NewServer(u)
	t.Cleanup(u.srv.Close)
	return u
}

func (u *upstream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if !u.quiet.Load() {
		u.record(seen{Service: u.name, Path: r.URL.Path, Header: r.Header.Clone(), Body: string(body), BodyErr: err})
	}
	if err != nil {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"result":{"status":"success","message":"ok","data":{"service":"` + u.name + `"}}}`))
}

func (u *upstream) record(s seen) {
	u.mu.Lock()
	u.got = append(u.got, s)
	u.mu.Unlock()
}

func (u *upstream) requests() []seen {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]seen(nil), u.got...)
}

// workspaceFake answers /internal/credentials/lookup like svc-workspace and
// echoes everything else like an upstream.
type workspaceFake struct {
	*upstream
	lookups atomic.Int64
	mu      sync.Mutex
	keys    map[string]credentialRecord
	// duringLookup, when set, runs after a lookup has read the record and
	// before it answers: a token change racing the lookup.
	duringLookup func(apiKey string)
}

func newWorkspaceFake(t testing.TB, signer *internalauth.Signer) *workspaceFake {
	f := &workspaceFake{upstream: &upstream{name: string(svcWorkspace)}, keys: map[string]credentialRecord{}}
	e := web.NewEngine(nil)
	e.Use(signer.Authenticate())
	e.POST(lookupPath, internalauth.RequireService(), web.Handle(func(c *gin.Context) (*api.Result, error) {
		var in struct {
			APIKey string `json:"apiKey" validate:"required"`
		}
		if err := api.Decode(c.Request, &in); err != nil {
			return nil, err
		}
		f.lookups.Add(1)
		f.mu.Lock()
		rec, ok := f.keys[in.APIKey]
		during := f.duringLookup
		f.mu.Unlock()
		if during != nil {
			during(in.APIKey)
		}
		if !ok {
			return nil, api.Errorf(api.NotFound, "unknown API key")
		}
		return api.OK("found", rec), nil
	}))
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/internal/") {
			e.ServeHTTP(w, r)
			return
		}
		f.upstream.ServeHTTP(w, r)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

// setTokens makes tokens the live tokens of apiKey in workspace ws.
func (f *workspaceFake) setTokens(apiKey, ws string, tokens ...string) {
	rec := credentialRecord{WorkspaceID: ws}
	for _, tok := range tokens {
		rec.TokenHashes = append(rec.TokenHashes, internalauth.HashToken(tok))
	}
	f.mu.Lock()
	f.keys[apiKey] = rec
	f.mu.Unlock()
}

// setDuringLookup installs f.duringLookup.
func (f *workspaceFake) setDuringLookup(fn func(apiKey string)) {
	f.mu.Lock()
	f.duringLookup = fn
	f.mu.Unlock()
}

// env is a gateway with every service deployed as an upstream stand-in.
type env struct {
	t         testing.TB
	gw        *Gateway
	srv       *testServer
	mr        *miniredis.Miniredis
	signer    *internalauth.Signer
	workspace *workspaceFake
	up        map[service]*upstream
}

func newEnv(t testing.TB, tune func(*Config)) *env {
	t.Helper()
	return newEnvDeps(t, tune, Deps{})
}

// newEnvDeps is newEnv with deps' in-process handlers.
func newEnvDeps(t testing.TB, tune func(*Config), deps Deps) *env {
	t.Helper()
	mr := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	t.Cleanup(func() { _ = rdb.Close() })
	signer := internalauth.NewSigner(testSecret)
	e := &env{t: t, mr: mr, signer: signer, workspace: newWorkspaceFake(t, signer), up: map[service]*upstream{}}
	e.workspace.setTokens(testKey, "ws1", testToken)
	e.up[svcWorkspace] = e.workspace.upstream
	for _, s := range []service{svcIdentity, svcContent, svcNotify, svcActivity, svcMemory} {
		e.up[s] = newUpstream(t, string(s))
	}
	cfg := Config{
		ListenAddr: ":0", RedisURL: "redis://" + mr.Addr(), InternalSecret: testSecret, OperatorToken: testOperator,
		WorkspaceURL: e.workspace.srv.URL, IdentityURL: e.up[svcIdentity].srv.URL, ContentURL: e.up[svcContent].srv.URL,
		NotifyURL: e.up[svcNotify].srv.URL, ActivityURL: e.up[svcActivity].srv.URL, MemoryURL: e.up[svcMemory].srv.URL,
		RateLimitPerSecond: 1000, MaxBodyBytes: api.MaxBodyBytes, AuthCacheTTL: time.Second, LogLevel: "debug",
	}
	if tune != nil {
		tune(&cfg)
	}
	// Debug, so the access log path runs in tests too.
	logger := slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelDebug}))
	if cfg.LogLevel != "debug" {
		logger = discardLogger()
	}
	deps.Redis = rdb
	if deps.Logger == nil {
		deps.Logger = logger
	}
	gw, err := New(cfg, deps)
	if err != nil {
		t.Fatal(err)
	}
	e.gw = gw
	e.srv = startTestServer(t, gw.Handler())
	return e
}

// post sends body to path with headers (name, value pairs).
func (e *env) post(path, body string, headers ...string) (*http.Response, []byte) {
	e.t.Helper()
	return e.do(http.MethodPost, path, strings.NewReader(body), headers...)
}

func (e *env) do(method, path string, body io.Reader, headers ...string) (*http.Response, []byte) {
	e.t.Helper()
	resp, raw, err := e.send(method, path, body, headers...)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp, raw
}

// send is do without failing the test, for goroutines other than the
// test's own.
func (e *env) send(method, path string, body io.Reader, headers ...string) (*http.Response, []byte, error) {
	req, err := http.NewRequest(method, e.srv.URL+path, body)
	if err != nil {
		return nil, nil, err
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	return resp, raw, err
}

// creds are ws1's headers.
var creds = []string{"x-svc-api-key", testKey, "x-svc-auth-token", testToken}

// totalSeen counts requests that reached any upstream.
func (e *env) totalSeen() int {
	n := 0
	for _, u := range e.up {
		n += len(u.requests())
	}
	return n
}

// wantError checks an error envelope with the given status.
func wantError(t *testing.T, resp *http.Response, raw []byte, status api.Status) string {
	t.Helper()
	var env struct {
		Error struct {
			Message string     `json:"message"`
			Status  api.Status `json:"status"`
		} `json:"error"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		t.Fatalf("body %q is not an error envelope: %v", raw, err)
	}
	if env.Error.Status != status || resp.StatusCode != api.HTTPStatus(status) {
		t.Fatalf("got %d %s (%q), want %d %s", resp.StatusCode, env.Error.Status, env.Error.Message, api.HTTPStatus(status), status)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("content type %q", ct)
	}
	return env.Error.Message
}

// wantService checks a success answer from the named upstream.
func wantService(t *testing.T, resp *http.Response, raw []byte, name service) {
	t.Helper()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(raw), `"service":"`+string(name)+`"`) {
		t.Fatalf("got %d %s, want an answer of %s", resp.StatusCode, raw, name)
	}
}
