package features

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/svcclient"
)

const secret = "features-test-secret-0123456789"

// fakeWorkspace is svc-workspace's settings route over an in-memory table.
type fakeWorkspace struct {
	mu       sync.Mutex
	switches map[string]map[Name]bool // workspace id → switches it reports
	domains  map[string][]string      // workspace id → allowed domains
	calls    atomic.Int64
	srv      *httptest.Server
}

func newFakeWorkspace(t *testing.T) *fakeWorkspace {
	t.Helper()
	f := &fakeWorkspace{switches: map[string]map[Name]bool{}, domains: map[string][]string{}}
	signer := internalauth.NewSigner(secret)
	e := api.NewEngine(nil)
	authed := e.Group("", signer.Authenticate(), internalauth.RequireService())
	authed.POST(SettingsPath, api.Handle(func(c *gin.Context) (*api.Result, error) {
		f.calls.Add(1)
		var req SettingsRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		sw, ok := f.switches[req.WorkspaceID]
		if !ok {
			return nil, api.Errorf(api.NotFound, "workspace not found")
		}
		return api.OK("Workspace settings retrieved.", SettingsResponse{WorkspaceID: req.WorkspaceID, Features: sw, AllowedDomains: f.domains[req.WorkspaceID]}), nil
	}))
	f.srv = httptest.NewServer(e)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeWorkspace) set(workspaceID string, sw map[Name]bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.switches[workspaceID] = sw
}

// clock is a settable time source for expiry.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func newChecker(f *fakeWorkspace, ttl time.Duration) (*Checker, *clock) {
	clk := &clock{t: time.Unix(1_700_000_000, 0)}
	c := NewChecker(svcclient.New("workspace", f.srv.URL, internalauth.NewSigner(secret)), ttl)
	c.now = clk.now
	return c, clk
}

func allOn() map[Name]bool {
	return map[Name]bool{ActivityService: true, NotificationConfig: true, AdvancedQueries: true, AdvancedWebhooks: true}
}

func TestRequire(t *testing.T) {
	f := newFakeWorkspace(t)
	f.set("ws_1", map[Name]bool{ActivityService: true, NotificationConfig: false, AdvancedQueries: true})
	c, _ := newChecker(f, 0)
	tests := []struct {
		feature Name
		wantOff bool
	}{
		{ActivityService, false},
		{NotificationConfig, true},
		{AdvancedQueries, false},
		{AdvancedWebhooks, false}, // not in the reply: enabled
	}
	for _, tt := range tests {
		t.Run(string(tt.feature), func(t *testing.T) {
			err := c.Require(context.Background(), "ws_1", tt.feature)
			if !tt.wantOff {
				if err != nil {
					t.Fatalf("Require = %v, want nil", err)
				}
				return
			}
			if !api.IsStatus(err, api.FailedPrecondition) {
				t.Fatalf("Require = %v, want FAILED_PRECONDITION", err)
			}
			want := string(tt.feature) + " is not enabled for this workspace; an operator can enable it"
			if apiErr, _ := api.AsError(err); apiErr.Message != want {
				t.Fatalf("message %q, want %q", apiErr.Message, want)
			}
		})
	}
}

func TestCacheHitMakesNoCall(t *testing.T) {
	ctx := context.Background()
	f := newFakeWorkspace(t)
	f.set("ws_1", allOn())
	f.set("ws_2", allOn())
	c, clk := newChecker(f, time.Minute)
	for _, feature := range All() {
		if err := c.Require(ctx, "ws_1", feature); err != nil {
			t.Fatal(err)
		}
		clk.advance(time.Second)
	}
	if n := f.calls.Load(); n != 1 {
		t.Fatalf("%d lookups for one workspace within the TTL, want 1", n)
	}
	if err := c.Require(ctx, "ws_2", ActivityService); err != nil {
		t.Fatal(err)
	}
	if n := f.calls.Load(); n != 2 {
		t.Fatalf("%d lookups for two workspaces, want 2 (the cache is per workspace)", n)
	}
}

func TestExpiryRefetches(t *testing.T) {
	ctx := context.Background()
	f := newFakeWorkspace(t)
	f.set("ws_1", allOn())
	c, clk := newChecker(f, 5*time.Second)
	if err := c.Require(ctx, "ws_1", AdvancedWebhooks); err != nil {
		t.Fatal(err)
	}
	f.set("ws_1", map[Name]bool{AdvancedWebhooks: false})

	clk.advance(4 * time.Second)
	if err := c.Require(ctx, "ws_1", AdvancedWebhooks); err != nil {
		t.Fatalf("within the TTL: %v, want the cached enabled value", err)
	}
	clk.advance(2 * time.Second)
	if err := c.Require(ctx, "ws_1", AdvancedWebhooks); !api.IsStatus(err, api.FailedPrecondition) {
		t.Fatalf("after the TTL: %v, want the switched-off value", err)
	}
	if n := f.calls.Load(); n != 2 {
		t.Fatalf("%d lookups, want 2", n)
	}
}

func TestStaleValueWhenWorkspaceIsDown(t *testing.T) {
	ctx := context.Background()
	f := newFakeWorkspace(t)
	f.set("ws_1", map[Name]bool{AdvancedQueries: false})
	c, clk := newChecker(f, time.Second)
	if err := c.Require(ctx, "ws_1", AdvancedQueries); !api.IsStatus(err, api.FailedPrecondition) {
		t.Fatalf("Require = %v, want FAILED_PRECONDITION", err)
	}
	f.srv.Close()
	clk.advance(time.Hour)
	if err := c.Require(ctx, "ws_1", AdvancedQueries); !api.IsStatus(err, api.FailedPrecondition) {
		t.Fatalf("with svc-workspace down: %v, want the stale FAILED_PRECONDITION", err)
	}
	if err := c.Require(ctx, "ws_1", ActivityService); err != nil {
		t.Fatalf("with svc-workspace down: %v, want the stale enabled value", err)
	}
	if err := c.Require(ctx, "ws_2", ActivityService); !api.IsStatus(err, api.Unavailable) {
		t.Fatalf("uncached workspace with svc-workspace down: %v, want UNAVAILABLE", err)
	}
}

func TestLookupErrorsAreUnavailable(t *testing.T) {
	f := newFakeWorkspace(t)
	tests := []struct {
		name   string
		client *svcclient.Client
	}{
		{"unknown workspace", svcclient.New("workspace", f.srv.URL, internalauth.NewSigner(secret))},
		{"wrong secret", svcclient.New("workspace", f.srv.URL, internalauth.NewSigner(strings.Repeat("x", 32)))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := NewChecker(tt.client, 0).Require(context.Background(), "ws_unknown", ActivityService)
			if !api.IsStatus(err, api.Unavailable) {
				t.Fatalf("Require = %v, want UNAVAILABLE", err)
			}
		})
	}
	if f.calls.Load() != 1 {
		t.Fatalf("%d calls reached the handler, want 1 (the wrong secret is refused before it)", f.calls.Load())
	}
}

func TestWithoutWorkspaceServiceEverythingIsEnabled(t *testing.T) {
	tests := []struct {
		name    string
		checker *Checker
	}{
		{"nil client", NewChecker(nil, 0)},
		{"client without address", NewChecker(svcclient.New("workspace", "", internalauth.NewSigner(secret)), 0)},
		{"nil checker", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, feature := range All() {
				if err := tt.checker.Require(context.Background(), "ws_1", feature); err != nil {
					t.Fatalf("Require(%s) = %v, want nil", feature, err)
				}
			}
		})
	}
}

// TestAllowsOrigin: the allowed domains come with the switches in one
// cached lookup; an empty list or an absent Origin allows, and a change is
// seen once the TTL has passed.
func TestAllowsOrigin(t *testing.T) {
	ctx := context.Background()
	f := newFakeWorkspace(t)
	f.set("ws_1", allOn())
	f.set("ws_2", allOn())
	f.mu.Lock()
	f.domains["ws_1"] = []string{"app.example.com"}
	f.mu.Unlock()
	c, clk := newChecker(f, time.Minute)
	check := func(ws, origin string, want bool) {
		t.Helper()
		got, err := c.AllowsOrigin(ctx, ws, origin)
		if err != nil || got != want {
			t.Fatalf("AllowsOrigin(%s, %q) = %v, %v; want %v", ws, origin, got, err, want)
		}
	}
	check("ws_1", "https://app.example.com", true)
	check("ws_1", "https://evil.example", false)
	check("ws_1", "", true)
	check("ws_2", "https://evil.example", true) // no list
	if err := c.Require(ctx, "ws_1", ActivityService); err != nil {
		t.Fatal(err)
	}
	if n := f.calls.Load(); n != 2 {
		t.Fatalf("%d lookups for two workspaces, want 2 (origins and switches share the cache)", n)
	}
	f.mu.Lock()
	f.domains["ws_1"] = nil
	f.mu.Unlock()
	check("ws_1", "https://evil.example", false) // cached
	clk.advance(2 * time.Minute)
	check("ws_1", "https://evil.example", true)
	if _, err := c.AllowsOrigin(ctx, "ws_unknown", "https://a.example"); !api.IsStatus(err, api.Unavailable) {
		t.Fatalf("unknown workspace: %v, want UNAVAILABLE", err)
	}
}
