package gateway

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
)

func TestRoutesToOwningService(t *testing.T) {
	e := newEnv(t, nil)
	tests := []struct {
		path string
		want service
	}{
		{"/v2/auth/generate_signature", svcIdentity},
		{"/v2/users/get", svcIdentity},
		{"/v1/users/delete", svcIdentity},
		{"/v1/organizations/usergroups/add", svcIdentity},
		{"/v2/organizations/usergroups/users/add", svcIdentity},
		{"/v1/organizations/folders/get", svcIdentity},
		{"/v2/organizations/documents/get", svcIdentity},
		{"/v1/organizations/documents/locations/update", svcContent},
		{"/v2/organizations/documents/migrate", svcContent},
		{"/v2/organizations/documents/migrate/status", svcContent},
		{"/v2/crdt/add", svcContent},
		{"/v2/commentannotations/get", svcContent},
		{"/v1/notifications/add", svcNotify},
		{"/v2/notifications/config/get", svcNotify},
		{"/v2/activities/add", svcActivity},
		{"/v2/workspace/emailconfig/get", svcWorkspace},
		{"/v2/agents/update", svcMemory},
		{"/v2/memory/search", svcMemory},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			before := len(e.up[tt.want].requests())
			resp, raw := e.post(tt.path+"?q=1", `{"data":{}}`, creds...)
			wantService(t, resp, raw, tt.want)
			got := e.up[tt.want].requests()
			if len(got) != before+1 || got[len(got)-1].Path != tt.path {
				t.Fatalf("%s did not receive %s unchanged: %+v", tt.want, tt.path, got)
			}
		})
	}
}

func TestUnknownPathsAreNotFound(t *testing.T) {
	e := newEnv(t, nil)
	for _, path := range []string{
		"/", "/v2/unknown/x", "/v2/users", "/internal/credentials/lookup", "/internal/x",
		"/v2/users/../../internal/credentials/lookup", "/v2/users//get", "/v2/users/./get",
	} {
		t.Run(path, func(t *testing.T) {
			// With and without credentials: routing comes first.
			resp, raw := e.post(path, `{"data":{}}`)
			wantError(t, resp, raw, api.NotFound)
			resp, raw = e.post(path, `{"data":{}}`, creds...)
			wantError(t, resp, raw, api.NotFound)
		})
	}
	if n := e.totalSeen(); n != 0 {
		t.Fatalf("%d requests reached a service", n)
	}
}

func TestNonPostIsInvalidArgument(t *testing.T) {
	e := newEnv(t, nil)
	for _, method := range []string{http.MethodGet, http.MethodPut, http.MethodDelete} {
		resp, raw := e.do(method, "/v2/users/get", nil, creds...)
		wantError(t, resp, raw, api.InvalidArgument)
	}
	if n := e.totalSeen(); n != 0 {
		t.Fatalf("%d requests reached a service", n)
	}
}

func TestBadCredentialsAreDenied(t *testing.T) {
	e := newEnv(t, nil)
	e.workspace.setTokens("key-ws2", "ws2", "token-ws2")
	tests := []struct {
		name    string
		headers []string
	}{
		{"none", nil},
		{"key only", []string{"x-svc-api-key", testKey}},
		{"token only", []string{"x-svc-auth-token", testToken}},
		{"wrong token", []string{"x-svc-api-key", testKey, "x-svc-auth-token", "nope"}},
		{"unknown key", []string{"x-svc-api-key", "no-such-key", "x-svc-auth-token", testToken}},
		{"other workspace's token", []string{"x-svc-api-key", testKey, "x-svc-auth-token", "token-ws2"}},
		{"empty values", []string{"x-svc-api-key", "", "x-svc-auth-token", ""}},
		{"huge key", []string{"x-svc-api-key", strings.Repeat("k", 600), "x-svc-auth-token", testToken}},
	}
	var messages []string
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, raw := e.post("/v2/users/get", `{"data":{}}`, tt.headers...)
			messages = append(messages, wantError(t, resp, raw, api.PermissionDenied))
		})
	}
	for _, m := range messages {
		if m != messages[0] {
			t.Fatalf("messages differ, they reveal which header was wrong: %q vs %q", m, messages[0])
		}
	}
	if n := e.totalSeen(); n != 0 {
		t.Fatalf("%d requests reached a service", n)
	}
}

func TestVeltHeaderAliases(t *testing.T) {
	e := newEnv(t, nil)
	resp, raw := e.post("/v2/users/get", `{"data":{}}`, "x-velt-api-key", testKey, "x-velt-auth-token", testToken)
	wantService(t, resp, raw, svcIdentity)
	resp, raw = e.post("/v2/users/get", `{"data":{}}`, "x-velt-api-key", testKey, "x-velt-auth-token", "bad")
	wantError(t, resp, raw, api.PermissionDenied)
}

func TestForwardsSignedWorkspaceAndNoSecrets(t *testing.T) {
	e := newEnv(t, nil)
	const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	body := `{"data":{"userIds":["a","b"],"html":"<b>&</b>"}}`
	resp, raw := e.post("/v2/users/get", body, append([]string{
		"x-velt-auth-token", "leak-me-not",
		internalauth.HeaderPrincipal, internalauth.Workspace("forged"),
		internalauth.HeaderSignature, "forged",
		"X-Request-Id", "client-req-1",
		"traceparent", traceparent,
	}, creds...)...)
	wantService(t, resp, raw, svcIdentity)
	if got := resp.Header.Get("X-Request-Id"); got != "client-req-1" {
		t.Fatalf("response request id = %q", got)
	}
	reqs := e.up[svcIdentity].requests()
	got := reqs[len(reqs)-1]
	principal, err := e.signer.Verify(got.Header)
	if err != nil || principal != internalauth.Workspace("ws1") {
		t.Fatalf("principal %q, err %v", principal, err)
	}
	for name, vals := range got.Header {
		for _, v := range vals {
			if strings.Contains(v, testToken) || strings.Contains(v, testKey) || v == "leak-me-not" {
				t.Fatalf("credential leaked to the service in %s", name)
			}
		}
		if strings.HasPrefix(name, "X-Velt-") || name == headerAPIKey || name == headerAuthToken {
			t.Fatalf("credential header %s forwarded", name)
		}
	}
	if got.Body != body {
		t.Fatalf("body changed: %q", got.Body)
	}
	if got.Header.Get("X-Request-Id") != "client-req-1" || got.Header.Get("Traceparent") != traceparent {
		t.Fatalf("request id / trace context not forwarded: %v", got.Header)
	}

	// An unusable client request id is replaced by a fresh one.
	resp, _ = e.post("/v2/users/get", `{"data":{}}`, append([]string{"X-Request-Id", "bad id\u00e9"}, creds...)...)
	reqs = e.up[svcIdentity].requests()
	fresh := reqs[len(reqs)-1].Header.Get("X-Request-Id")
	if fresh == "" || fresh == "bad id\u00e9" || resp.Header.Get("X-Request-Id") != fresh {
		t.Fatalf("request id %q, response %q", fresh, resp.Header.Get("X-Request-Id"))
	}
}

func TestOperatorPaths(t *testing.T) {
	tests := []struct {
		name     string
		operator string // OPERATOR_TOKEN
		headers  []string
		allowed  bool
	}{
		{"right token", testOperator, []string{"x-svc-operator-token", testOperator}, true},
		{"wrong token", testOperator, []string{"x-svc-operator-token", testOperator + "x"}, false},
		{"missing token", testOperator, nil, false},
		{"workspace credentials", testOperator, creds, false},
		{"operator disabled", "", []string{"x-svc-operator-token", ""}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, func(c *Config) { c.OperatorToken = tt.operator })
			for _, path := range operatorPaths {
				resp, raw := e.post(path, `{"data":{}}`, tt.headers...)
				if !tt.allowed {
					wantError(t, resp, raw, api.PermissionDenied)
					continue
				}
				wantService(t, resp, raw, svcWorkspace)
				reqs := e.up[svcWorkspace].requests()
				got := reqs[len(reqs)-1]
				if p, err := e.signer.Verify(got.Header); err != nil || p != internalauth.Operator {
					t.Fatalf("%s: principal %q, err %v", path, p, err)
				}
				if got.Header.Get(headerOperatorToken) != "" {
					t.Fatal("operator token forwarded")
				}
			}
			if !tt.allowed && e.totalSeen() != 0 {
				t.Fatal("a refused request reached a service")
			}
		})
	}
	// The operator token opens operator paths only.
	e := newEnv(t, nil)
	resp, raw := e.post("/v2/workspace/emailconfig/get", `{"data":{}}`, "x-svc-operator-token", testOperator)
	wantError(t, resp, raw, api.PermissionDenied)
}

func TestServiceNotDeployedIsUnavailable(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.MemoryURL = "" })
	resp, raw := e.post("/v2/memory/search", `{"data":{}}`, creds...)
	wantError(t, resp, raw, api.Unavailable)
	// Credentials are still checked first.
	resp, raw = e.post("/v2/memory/search", `{"data":{}}`)
	wantError(t, resp, raw, api.PermissionDenied)
}

func TestDeadUpstreamIsUnavailable(t *testing.T) {
	dead := refusedURL(t)
	e := newEnv(t, func(c *Config) { c.ContentURL = dead })
	resp, raw := e.post("/v2/crdt/get", `{"data":{}}`, creds...)
	wantError(t, resp, raw, api.Unavailable)
}

func TestWorkspaceServiceDownIsUnavailable(t *testing.T) {
	dead := refusedURL(t) // closing the fake would free its port for another test
	e := newEnv(t, func(c *Config) { c.WorkspaceURL = dead })
	resp, raw := e.post("/v2/users/get", `{"data":{}}`, creds...)
	wantError(t, resp, raw, api.Unavailable)
}

func TestBodyLimit(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.MaxBodyBytes = 1024 })
	big := `{"data":{"x":"` + strings.Repeat("a", 2000) + `"}}`

	resp, raw := e.post("/v2/users/get", big, creds...) // Content-Length known
	wantError(t, resp, raw, api.InvalidArgument)
	if n := e.totalSeen(); n != 0 {
		t.Fatalf("oversize body with Content-Length reached a service (%d)", n)
	}

	// Chunked: no length up front, so the limit trips while streaming.
	resp, raw = e.do(http.MethodPost, "/v2/users/get", io.MultiReader(strings.NewReader(big)), creds...)
	wantError(t, resp, raw, api.InvalidArgument)

	fits := `{"data":{"x":"` + strings.Repeat("a", 900) + `"}}`
	resp, raw = e.do(http.MethodPost, "/v2/users/get", io.MultiReader(strings.NewReader(fits)), creds...)
	wantService(t, resp, raw, svcIdentity)
	// The oversize chunked request may have reached the service cut short
	// (its read fails, and the service may note that after the next
	// request): only the body that fits may arrive whole.
	whole := 0
	for _, r := range e.up[svcIdentity].requests() {
		if r.BodyErr != nil {
			continue
		}
		if whole++; r.Body != fits {
			t.Fatalf("chunked body changed on the way: the service read %d bytes whole", len(r.Body))
		}
	}
	if whole != 1 {
		t.Fatalf("the chunked body that fits arrived whole %d times, want once", whole)
	}
}

func TestRateLimitExceeded(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.RateLimitPerSecond = 5 })
	e.gw.limiter.now = fixedClock(1_700_000_000) // one window for the whole test
	for i := range 5 {
		resp, raw := e.post("/v2/users/get", `{"data":{}}`, creds...)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("request %d: %d %s", i, resp.StatusCode, raw)
		}
	}
	resp, raw := e.post("/v2/users/get", `{"data":{}}`, creds...)
	wantError(t, resp, raw, api.ResourceExhausted)
	if ra := resp.Header.Get("Retry-After"); ra != "1" {
		t.Fatalf("429 with Retry-After %q, want 1 (the window is a second)", ra)
	}
	if n := len(e.up[svcIdentity].requests()); n != 5 {
		t.Fatalf("%d requests reached the service, want 5", n)
	}
}

func TestRateLimitDisabled(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.RateLimitPerSecond = 0 })
	if e.gw.limiter != nil {
		t.Fatal("limiter built with RATE_LIMIT_PER_SECOND=0")
	}
	for range 20 {
		resp, raw := e.post("/v2/users/get", `{"data":{}}`, creds...)
		wantService(t, resp, raw, svcIdentity)
	}
}

func TestProbes(t *testing.T) {
	e := newEnv(t, nil)
	for path, want := range map[string]string{"/healthz": "ok", "/readyz": "ready"} {
		resp, raw := e.do(http.MethodGet, path, nil)
		if resp.StatusCode != http.StatusOK || string(raw) != want {
			t.Fatalf("%s: %d %q", path, resp.StatusCode, raw)
		}
	}
	// Without Redis the gateway still serves, so it stays ready and says
	// Redis is degraded.
	e.mr.Close()
	for path, want := range map[string]string{"/healthz": "ok", "/readyz": "ready; redis: degraded"} {
		resp, raw := e.do(http.MethodGet, path, nil)
		if resp.StatusCode != http.StatusOK || string(raw) != want {
			t.Fatalf("%s without Redis: %d %q, want 200 %q", path, resp.StatusCode, raw, want)
		}
	}
}
