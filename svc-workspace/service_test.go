package svcworkspace_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/config"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/service"
	"github.com/opencollab/backend/pkg/service/servicetest"
	svcworkspace "github.com/opencollab/backend/svc-workspace"
)

const secret = servicetest.Secret

var (
	signer  = servicetest.Signer
	gateway = internalauth.Service("gateway")
)

type (
	env   struct{ *servicetest.Env }
	reply = servicetest.Reply
)

func newEnv(t *testing.T, cfg svcworkspace.Config) *env {
	t.Helper()
	e := &env{servicetest.NewEnv(t)}
	e.start(cfg)
	return e
}

// start (re)starts the service on e's stores and returns its handler.
func (e *env) start(cfg svcworkspace.Config) http.Handler {
	return servicetest.Start(e.Env, svcworkspace.New, cfg).Handler()
}

type created struct {
	WorkspaceID string `json:"workspaceId"`
	APIKey      string `json:"apiKey"`
	AuthToken   string `json:"authToken"`
}

func (e *env) createWorkspace(data any) created {
	e.T.Helper()
	var c created
	e.OK(internalauth.Operator, "/v2/workspace/create", data, &c)
	if c.WorkspaceID == "" || c.APIKey == "" || c.AuthToken == "" {
		e.T.Fatalf("create returned %+v", c)
	}
	return c
}

func (e *env) lookup(apiKey string) svcworkspace.CredentialLookupResponse {
	e.T.Helper()
	var l svcworkspace.CredentialLookupResponse
	e.OK(gateway, svcworkspace.CredentialLookupPath, map[string]any{"apiKey": apiKey}, &l)
	return l
}

func TestCreateThenLookup(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcworkspace.Config{})
	for _, body := range []any{nil, map[string]any{}, map[string]any{"name": "Acme"}} {
		c := e.createWorkspace(body)
		if !strings.HasPrefix(c.APIKey, "ak_") || !strings.HasPrefix(c.AuthToken, "at_") {
			t.Fatalf("credential formats: %+v", c)
		}
		l := e.lookup(c.APIKey)
		if l.WorkspaceID != c.WorkspaceID {
			t.Fatalf("lookup workspace %q, want %q", l.WorkspaceID, c.WorkspaceID)
		}
		if !slices.Equal(l.TokenHashes, []string{internalauth.HashToken(c.AuthToken)}) {
			t.Fatalf("lookup hashes %v, want the hash of the issued token", l.TokenHashes)
		}
	}
}

func TestTokensAreStoredOnlyAsHashes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcworkspace.Config{})
	c := e.createWorkspace(nil)
	n, err := e.DB.Collection("auth_tokens").CountDocuments(context.Background(), bson.M{"_id": c.AuthToken})
	if err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatal("the auth token is stored in clear")
	}
}

func TestCreateAndResetToken(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, svcworkspace.Config{})
	c := e.createWorkspace(nil)
	cacheKey := internalauth.CredentialCacheKey(c.APIKey)

	e.Redis.Set(ctx, cacheKey, "stale", 0)
	var second created
	e.OK(internalauth.Operator, "/v2/workspace/authtoken/create", map[string]any{"apiKey": c.APIKey}, &second)
	if second.APIKey != c.APIKey || second.AuthToken == "" || second.AuthToken == c.AuthToken {
		t.Fatalf("token create returned %+v", second)
	}
	want := []string{internalauth.HashToken(c.AuthToken), internalauth.HashToken(second.AuthToken)}
	if got := e.lookup(c.APIKey).TokenHashes; !sameSet(got, want) {
		t.Fatalf("after create: hashes %v, want %v", got, want)
	}
	assertTombstone(t, e.Redis, c.APIKey, "token create")

	e.Redis.Set(ctx, cacheKey, "stale", 0)
	code, r := e.Call(internalauth.Operator, "/v2/workspace/authtoken/reset", map[string]any{"apiKey": c.APIKey, "authToken": second.AuthToken})
	if code != http.StatusOK || r.Result.Status != "success" || r.Result.Message != "Auth token reset." || r.Result.Data != nil {
		t.Fatalf("reset: HTTP %d %+v", code, r)
	}
	if got := e.lookup(c.APIKey).TokenHashes; !slices.Equal(got, want[:1]) {
		t.Fatalf("after reset: hashes %v, want %v", got, want[:1])
	}
	assertTombstone(t, e.Redis, c.APIKey, "token reset")

	// Resetting the last token is allowed and leaves an empty list.
	e.OK(internalauth.Operator, "/v2/workspace/authtoken/reset", map[string]any{"apiKey": c.APIKey, "authToken": c.AuthToken}, nil)
	if got := e.lookup(c.APIKey).TokenHashes; got == nil || len(got) != 0 {
		t.Fatalf("after last reset: hashes %#v, want []", got)
	}
}

func TestNotFound(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcworkspace.Config{})
	c := e.createWorkspace(nil)
	tests := []struct {
		name, principal, path string
		data                  map[string]any
	}{
		{"reset of a token never issued", internalauth.Operator, "/v2/workspace/authtoken/reset", map[string]any{"apiKey": c.APIKey, "authToken": "at_nope"}},
		{"reset with unknown key", internalauth.Operator, "/v2/workspace/authtoken/reset", map[string]any{"apiKey": "ak_nope", "authToken": c.AuthToken}},
		{"token create with unknown key", internalauth.Operator, "/v2/workspace/authtoken/create", map[string]any{"apiKey": "ak_nope"}},
		{"lookup of unknown key", gateway, svcworkspace.CredentialLookupPath, map[string]any{"apiKey": "ak_nope"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.Fails(tt.principal, tt.path, tt.data, http.StatusNotFound, "NOT_FOUND")
		})
	}
	// The failed reset with the right key but another token left the live one alone.
	if got := e.lookup(c.APIKey).TokenHashes; len(got) != 1 {
		t.Fatalf("hashes after failed resets: %v", got)
	}
}

func TestWrongPrincipal(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcworkspace.Config{})
	c := e.createWorkspace(nil)
	withKey := map[string]any{"apiKey": c.APIKey}
	withToken := map[string]any{"apiKey": c.APIKey, "authToken": c.AuthToken}
	tests := []struct {
		name, principal, path string
		data                  any
	}{
		{"workspace creates workspace", internalauth.Workspace(c.WorkspaceID), "/v2/workspace/create", nil},
		{"service creates workspace", gateway, "/v2/workspace/create", nil},
		{"unsigned creates workspace", "", "/v2/workspace/create", nil},
		{"workspace creates token", internalauth.Workspace(c.WorkspaceID), "/v2/workspace/authtoken/create", withKey},
		{"service resets token", gateway, "/v2/workspace/authtoken/reset", withToken},
		{"operator looks up", internalauth.Operator, svcworkspace.CredentialLookupPath, withKey},
		{"workspace looks up", internalauth.Workspace(c.WorkspaceID), svcworkspace.CredentialLookupPath, withKey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.Fails(tt.principal, tt.path, tt.data, http.StatusForbidden, "PERMISSION_DENIED")
		})
	}
	if got := e.lookup(c.APIKey).TokenHashes; len(got) != 1 {
		t.Fatalf("denied calls changed the tokens: %v", got)
	}
}

func TestInvalidArgument(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcworkspace.Config{})
	tests := []struct {
		name, principal, path string
		data                  any
		field                 string
	}{
		{"token create without apiKey", internalauth.Operator, "/v2/workspace/authtoken/create", map[string]any{}, "apiKey"},
		{"token create without body", internalauth.Operator, "/v2/workspace/authtoken/create", nil, "data"},
		{"reset without apiKey", internalauth.Operator, "/v2/workspace/authtoken/reset", map[string]any{"authToken": "at_x"}, "apiKey"},
		{"reset without authToken", internalauth.Operator, "/v2/workspace/authtoken/reset", map[string]any{"apiKey": "ak_x"}, "authToken"},
		{"lookup without apiKey", gateway, svcworkspace.CredentialLookupPath, map[string]any{}, "apiKey"},
		{"apiKey of the wrong type", gateway, svcworkspace.CredentialLookupPath, map[string]any{"apiKey": 7}, "apiKey"},
		{"name of the wrong type", internalauth.Operator, "/v2/workspace/create", map[string]any{"name": true}, "name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.Fails(tt.principal, tt.path, tt.data, http.StatusBadRequest, "INVALID_ARGUMENT")
			if !strings.Contains(r.Error.Message, tt.field) {
				t.Fatalf("message %q does not name %s", r.Error.Message, tt.field)
			}
		})
	}
	n, err := e.DB.Collection("workspaces").CountDocuments(context.Background(), bson.M{})
	if err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("invalid requests wrote %d workspaces", n)
	}
}

func TestBootstrapIsIdempotent(t *testing.T) {
	t.Parallel()
	cfg := svcworkspace.Config{BootstrapAPIKey: "ak_bootstrap_key", BootstrapAuthToken: "at_bootstrap_token"}
	e := newEnv(t, cfg)
	first := e.lookup(cfg.BootstrapAPIKey)

	e.H = e.start(cfg) // a restart on the same database
	second := e.lookup(cfg.BootstrapAPIKey)

	if first.WorkspaceID == "" || second.WorkspaceID != first.WorkspaceID {
		t.Fatalf("workspace changed across restarts: %q then %q", first.WorkspaceID, second.WorkspaceID)
	}
	if want := []string{internalauth.HashToken(cfg.BootstrapAuthToken)}; !slices.Equal(second.TokenHashes, want) {
		t.Fatalf("hashes %v, want %v", second.TokenHashes, want)
	}
	n, err := e.DB.Collection("workspaces").CountDocuments(context.Background(), bson.M{})
	if err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("%d workspaces after two starts, want 1", n)
	}
	// The bootstrap token is a real one: the operator can reset it.
	e.OK(internalauth.Operator, "/v2/workspace/authtoken/reset",
		map[string]any{"apiKey": cfg.BootstrapAPIKey, "authToken": cfg.BootstrapAuthToken}, nil)
}

func TestConfigValidate(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("s", 16)
	tests := []struct {
		name    string
		cfg     svcworkspace.Config
		wantErr bool
	}{
		{"minimal", svcworkspace.Config{Base: service.Base{InternalSecret: long}}, false},
		{"short secret", svcworkspace.Config{Base: service.Base{InternalSecret: long[:15]}}, true},
		{"bootstrap pair", svcworkspace.Config{Base: service.Base{InternalSecret: long}, BootstrapAPIKey: "k", BootstrapAuthToken: "t"}, false},
		{"bootstrap key alone", svcworkspace.Config{Base: service.Base{InternalSecret: long}, BootstrapAPIKey: "k"}, true},
		{"bootstrap token alone", svcworkspace.Config{Base: service.Base{InternalSecret: long}, BootstrapAuthToken: "t"}, true},
		{"data key", svcworkspace.Config{Base: service.Base{InternalSecret: long}, DataEncryptionKey: testDataKey}, false},
		{"data key of 16 bytes", svcworkspace.Config{Base: service.Base{InternalSecret: long}, DataEncryptionKey: "MDEyMzQ1Njc4OWFiY2RlZg=="}, true},
		{"data key not base64", svcworkspace.Config{Base: service.Base{InternalSecret: long}, DataEncryptionKey: "not base64!"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.cfg.Validate(); (err != nil) != tt.wantErr {
				t.Fatalf("Validate() = %v, wantErr %v", err, tt.wantErr)
			}
		})
	}
	if err := (&svcworkspace.Config{}).ValidateStores(); err == nil {
		t.Fatal("ValidateStores accepted empty store addresses")
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// assertTombstone checks the gateway's cached lookup of apiKey was replaced
// by a tombstone (a miss for the gateway that also refuses the write-back
// of a lookup started earlier), not left as the "stale" value.
func assertTombstone(t *testing.T, rdb *redis.Client, apiKey, after string) {
	t.Helper()
	_, raw, hit, err := internalauth.ReadCachedCredentials(context.Background(), rdb, apiKey)
	if err != nil {
		t.Fatal(err)
	}
	if hit || raw == "" {
		t.Fatalf("after %s: cache key holds %q, want a tombstone", after, raw)
	}
}

func TestConfigFromEnvironment(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var cfg svcworkspace.Config
	if err := config.Defaults(ctx, &cfg); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cfg.EventStreams, svcworkspace.DefaultEventStreams) || cfg.WebhookAllowPrivateTargets || cfg.DataEncryptionKey != "" ||
		cfg.WebhookTargetCacheTTL != 2*time.Second {
		t.Fatalf("defaults: streams %v, private targets %v, target cache %v", cfg.EventStreams, cfg.WebhookAllowPrivateTargets, cfg.WebhookTargetCacheTTL)
	}
	env := mapEnv(map[string]string{
		"INTERNAL_SECRET": secret, "DATA_ENCRYPTION_KEY": testDataKey,
		"EVENT_STREAMS": "events:a,events:b", "WEBHOOK_ALLOW_PRIVATE_TARGETS": "true",
		"WEBHOOK_TARGET_CACHE_TTL": "-1s",
	})
	cfg = svcworkspace.Config{}
	if err := config.LoadFrom(ctx, &cfg, env); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cfg.EventStreams, []string{"events:a", "events:b"}) || !cfg.WebhookAllowPrivateTargets || cfg.DataEncryptionKey != testDataKey ||
		cfg.WebhookTargetCacheTTL != -time.Second {
		t.Fatalf("loaded %+v", cfg)
	}
	if masked := config.Masked(&cfg); masked["DATA_ENCRYPTION_KEY"] != "***" {
		t.Fatalf("DATA_ENCRYPTION_KEY logged as %q", masked["DATA_ENCRYPTION_KEY"])
	}
}

// mapEnv is an environment for config.LoadFrom.
type mapEnv map[string]string

func (m mapEnv) Lookup(key string) (string, bool) { v, ok := m[key]; return v, ok }
