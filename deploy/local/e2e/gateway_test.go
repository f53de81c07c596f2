package e2e

import (
	"bytes"
	"github.com/opencollab/backend/deploy/local/system"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A harmless identity read used to probe authentication.
const probePath = "/v2/organizations/get"

var probeData = map[string]any{}

func TestBootstrapCredentialsWork(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	bootstrap := creds{s.sys.Credentials.APIKey, s.sys.Credentials.AuthToken}
	expectOK(t, s.callAs(bootstrap, probePath, probeData))
	expectOK(t, s.call(probePath, probeData))
}

func TestGatewayRefusesBadCredentials(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	other := s.newWorkspace()
	cases := map[string]map[string]string{
		"no headers":         {},
		"api key only":       {"x-svc-api-key": s.ws.apiKey},
		"token only":         {"x-svc-auth-token": s.ws.authToken},
		"unknown api key":    {"x-svc-api-key": "ak_nope", "x-svc-auth-token": s.ws.authToken},
		"wrong token":        {"x-svc-api-key": s.ws.apiKey, "x-svc-auth-token": "at_wrong"},
		"other ws token":     {"x-svc-api-key": s.ws.apiKey, "x-svc-auth-token": other.authToken},
		"operator token":     {"x-svc-operator-token": s.sys.Credentials.OperatorToken},
		"empty values":       {"x-svc-api-key": "", "x-svc-auth-token": ""},
		"velt key, svc none": {"x-velt-api-key": s.ws.apiKey},
	}
	for name, h := range cases {
		t.Run(name, func(t *testing.T) {
			r := s.raw(http.MethodPost, probePath, []byte(`{"data":{}}`), h)
			expectStatus(t, r, "PERMISSION_DENIED", 403)
		})
	}
	t.Run("velt aliases accepted", func(t *testing.T) {
		r := s.raw(http.MethodPost, probePath, []byte(`{"data":{}}`), map[string]string{
			"x-velt-api-key": s.ws.apiKey, "x-velt-auth-token": s.ws.authToken,
		})
		expectOK(t, r)
	})
}

func TestGatewayEnvelopesForRoutingErrors(t *testing.T) {
	t.Parallel()
	// Host only identity, so the memory prefix has no service behind it.
	s := startStack(t, func(o *system.Options) { o.Services = []string{"identity"} })
	auth := map[string]string{"x-svc-api-key": s.ws.apiKey, "x-svc-auth-token": s.ws.authToken}
	tests := []struct {
		name, method, path string
		body               []byte
		status             string
		code               int
	}{
		{"unknown path", http.MethodPost, "/v2/nothing/here", []byte(`{"data":{}}`), "NOT_FOUND", 404},
		{"internal never routed", http.MethodPost, "/internal/credentials/lookup", []byte(`{"data":{"apiKey":"x"}}`), "NOT_FOUND", 404},
		{"GET on an operation", http.MethodGet, probePath, nil, "INVALID_ARGUMENT", 400},
		{"PUT on an operation", http.MethodPut, probePath, []byte(`{"data":{}}`), "INVALID_ARGUMENT", 400},
		{"service not deployed", http.MethodPost, "/v2/memory/search", []byte(`{"data":{"query":"x"}}`), "UNAVAILABLE", 503},
		{"body over 5 MiB", http.MethodPost, probePath, bytes.Repeat([]byte("x"), 5<<20+10), "INVALID_ARGUMENT", 400},
		{"body not JSON", http.MethodPost, probePath, []byte(`not json`), "INVALID_ARGUMENT", 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			expectStatus(t, s.raw(tt.method, tt.path, tt.body, auth), tt.status, tt.code)
		})
	}
}

func TestOperatorCredentialLifecycle(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	// Without the operator token, workspace credentials do not create workspaces.
	r := s.call("/v2/workspace/create", map[string]any{})
	expectStatus(t, r, "PERMISSION_DENIED", 403)
	r = s.raw(http.MethodPost, "/v2/workspace/create", []byte(`{"data":{}}`), map[string]string{"x-svc-operator-token": "op_wrong"})
	expectStatus(t, r, "PERMISSION_DENIED", 403)

	ws := s.newWorkspace()
	if !strings.HasPrefix(ws.apiKey, "ak_") || ws.authToken == "" {
		t.Fatalf("unexpected credentials %+v", ws)
	}
	expectOK(t, s.callAs(ws, probePath, probeData))

	r = s.operator("/v2/workspace/authtoken/create", map[string]any{"apiKey": ws.apiKey})
	expectOK(t, r)
	second := creds{apiKey: ws.apiKey, authToken: r.DataMap()["authToken"].(string)}
	expectOK(t, s.callAs(second, probePath, probeData))
	expectOK(t, s.callAs(ws, probePath, probeData)) // the first token stays live

	expectStatus(t, s.operator("/v2/workspace/authtoken/create", map[string]any{"apiKey": "ak_unknown"}), "NOT_FOUND", 404)
	expectStatus(t, s.operator("/v2/workspace/authtoken/reset", map[string]any{"apiKey": ws.apiKey}), "INVALID_ARGUMENT", 400)

	expectOK(t, s.operator("/v2/workspace/authtoken/reset", map[string]any{"apiKey": ws.apiKey, "authToken": ws.authToken}))
	// The reset must take effect within one second on the warm gateway.
	refusedWithinASecond(t, s, ws)
	expectOK(t, s.callAs(second, probePath, probeData))
	expectStatus(t, s.operator("/v2/workspace/authtoken/reset", map[string]any{"apiKey": ws.apiKey, "authToken": ws.authToken}), "NOT_FOUND", 404)
}

// A key called less often than the gateway's 1 s credential TTL is kept
// confirmed in the background (AUTH_CACHE_KEEP_WARM): a reset must still
// take effect within one second.
func TestResetOfAKeyKeptWarmTakesEffectWithinASecond(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	ws := s.newWorkspace()
	expectOK(t, s.callAs(ws, probePath, probeData))
	time.Sleep(2500 * time.Millisecond) // idle: only the keeper renews the entry
	expectOK(t, s.callAs(ws, probePath, probeData))

	expectOK(t, s.operator("/v2/workspace/authtoken/reset", map[string]any{"apiKey": ws.apiKey, "authToken": ws.authToken}))
	refusedWithinASecond(t, s, ws)
}

// refusedWithinASecond polls with ws's revoked token until the gateway
// refuses it, and fails the test if that takes more than a second.
func refusedWithinASecond(t *testing.T, s *stack, ws creds) {
	t.Helper()
	deadline := time.Now().Add(time.Second)
	for {
		r := s.callAs(ws, probePath, probeData)
		if r.Status() == "PERMISSION_DENIED" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("revoked token still accepted after 1s: %s", r.Raw)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestRateLimitPerAPIKey(t *testing.T) {
	t.Parallel()
	s := startStack(t, func(o *system.Options) { o.RateLimitPerSecond = 5 })
	limited := 0
	for i := 0; i < 60 && limited == 0; i++ {
		r := s.call(probePath, probeData)
		switch r.Status() {
		case "":
		case "RESOURCE_EXHAUSTED":
			expectStatus(t, r, "RESOURCE_EXHAUSTED", 429)
			limited++
		default:
			t.Fatalf("unexpected reply %s", r.Raw)
		}
	}
	if limited == 0 {
		t.Fatal("60 requests at a limit of 5/s were never refused")
	}
	// Another workspace has its own budget.
	expectOK(t, s.callAs(s.newWorkspace(), probePath, probeData))
}
