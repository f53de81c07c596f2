package e2e

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"testing"

	"github.com/opencollab/backend/deploy/local/system"
	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/pkg/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// stack is a running system plus a client holding its credentials.
type stack struct {
	t   *testing.T
	sys *system.System
	ws  creds
}

type creds struct{ apiKey, authToken string }

// startStack starts the whole backend the way `go run ./deploy/local` does,
// on this test's stores, with the gateway on a free loopback port.
func startStack(t *testing.T, opts ...func(*system.Options)) *stack {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	prefix := "e" + randomHex(5) + "_"
	o := system.Options{
		DataDir:            t.TempDir(),
		GatewayAddr:        "127.0.0.1:0",
		MongoURI:           testenv.MongoURI(t),
		RedisURL:           testenv.RedisURL(t),
		DBPrefix:           prefix,
		RateLimitPerSecond: -1,
		Logger:             slog.New(slog.NewJSONHandler(io.Discard, nil)),
	}
	for _, f := range opts {
		f(&o)
	}
	sys, err := system.Start(ctx, o)
	if err != nil {
		cancel()
		t.Fatalf("start system: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		if err := sys.Wait(); err != nil {
			t.Errorf("system shutdown: %v", err)
		}
		dropDatabases(t, o.MongoURI, prefix)
	})
	return &stack{t: t, sys: sys, ws: creds{sys.Credentials.APIKey, sys.Credentials.AuthToken}}
}

func dropDatabases(t *testing.T, uri, prefix string) {
	client, err := mongodb.Connect(context.Background(), uri)
	if err != nil {
		t.Logf("drop databases: %v", err)
		return
	}
	defer client.Disconnect(context.Background())
	for _, svc := range []string{"workspace", "identity", "content", "notify", "activity", "memory"} {
		_ = client.Database(prefix + svc).Drop(context.Background())
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// reply is a decoded response envelope.
type reply struct {
	Code   int
	Result map[string]any
	Error  map[string]any
	Raw    []byte
}

// Data returns result.data.
func (r reply) Data() any { return r.Result["data"] }

// DataMap returns result.data as an object.
func (r reply) DataMap() map[string]any { m, _ := r.Result["data"].(map[string]any); return m }

// Status returns error.status ("" on success).
func (r reply) Status() string { s, _ := r.Error["status"].(string); return s }

// call posts {"data": data} with the stack's workspace credentials.
func (s *stack) call(path string, data any) reply {
	s.t.Helper()
	return s.callAs(s.ws, path, data)
}

func (s *stack) callAs(c creds, path string, data any) reply {
	s.t.Helper()
	return s.raw(http.MethodPost, path, mustJSON(s.t, map[string]any{"data": data}), map[string]string{
		"x-svc-api-key": c.apiKey, "x-svc-auth-token": c.authToken,
	})
}

// operator posts with the operator token instead of workspace credentials.
func (s *stack) operator(path string, data any) reply {
	s.t.Helper()
	return s.raw(http.MethodPost, path, mustJSON(s.t, map[string]any{"data": data}), map[string]string{
		"x-svc-operator-token": s.sys.Credentials.OperatorToken,
	})
}

func (s *stack) raw(method, path string, body []byte, headers map[string]string) reply {
	s.t.Helper()
	req, err := http.NewRequest(method, s.sys.GatewayURL+path, bytes.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	s.checkContract(req, body, resp, b)
	noInternalPlaceholder(s.t, path, body, b)
	var env struct {
		Result map[string]any `json:"result"`
		Error  map[string]any `json:"error"`
	}
	if err := json.Unmarshal(b, &env); err != nil {
		s.t.Fatalf("%s %s: response is not a JSON envelope (%d): %q", method, path, resp.StatusCode, b)
	}
	if env.Result == nil && env.Error == nil {
		s.t.Fatalf("%s %s: neither result nor error in %q", method, path, b)
	}
	return reply{Code: resp.StatusCode, Result: env.Result, Error: env.Error, Raw: b}
}

// newWorkspace creates another workspace through the operator API.
func (s *stack) newWorkspace() creds {
	s.t.Helper()
	r := s.operator("/v2/workspace/create", map[string]any{"name": "second"})
	if r.Code != 200 {
		s.t.Fatalf("create workspace: %d %s", r.Code, r.Raw)
	}
	d := r.DataMap()
	return creds{apiKey: d["apiKey"].(string), authToken: d["authToken"].(string)}
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// expectStatus fails unless r is an error envelope with the given status.
func expectStatus(t *testing.T, r reply, status string, httpCode int) {
	t.Helper()
	if r.Status() != status || r.Code != httpCode {
		t.Fatalf("want %s (%d), got %d %s", status, httpCode, r.Code, r.Raw)
	}
	if msg, _ := r.Error["message"].(string); msg == "" {
		t.Fatalf("error without message: %s", r.Raw)
	}
}

// expectOK fails unless r is a success envelope.
func expectOK(t *testing.T, r reply) {
	t.Helper()
	if r.Code != 200 || r.Result["status"] != "success" {
		t.Fatalf("want success, got %d %s", r.Code, r.Raw)
	}
}

// internalPrefix starts the keys services make up for themselves
// (svc-content's annotations.ReservedPrefix, e.g. "__svc_item:0"): none may
// reach a client, on any call of any e2e test, unless the client sent it.
const internalPrefix = "__svc_"

func noInternalPlaceholder(t *testing.T, path string, req, resp []byte) {
	t.Helper()
	if bytes.Contains(resp, []byte(internalPrefix)) && !bytes.Contains(req, []byte(internalPrefix)) {
		t.Errorf("%s: an internal placeholder (%s…) reached the response: %s", path, internalPrefix, resp)
	}
}
