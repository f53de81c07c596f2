package svcnotify_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/docmigrate"
	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/service"
	"github.com/opencollab/backend/pkg/service/servicetest"
	svcnotify "github.com/opencollab/backend/svc-notify"
)

var (
	ws1      = internalauth.Workspace("ws1")
	ws2      = internalauth.Workspace("ws2")
	identity = internalauth.Service("identity")
)

type env struct{ *servicetest.Env }

func newEnv(t *testing.T, cfg svcnotify.Config) *env {
	t.Helper()
	return &env{servicetest.New(t, svcnotify.New, cfg)}
}

func (e *env) count(filter bson.M) int64 { return e.Count("notifications", filter) }

// published returns the events on the notification stream, oldest first.
func (e *env) published() []events.Event { return e.Published(svcnotify.EventStream) }

func TestConfigValidate(t *testing.T) {
	long := strings.Repeat("s", 16)
	tests := []struct {
		name    string
		cfg     svcnotify.Config
		wantErr bool
	}{
		{"minimal", svcnotify.Config{Base: service.Base{InternalSecret: long}}, false},
		{"short secret", svcnotify.Config{Base: service.Base{InternalSecret: long[:15]}}, true},
		{"workspace url", svcnotify.Config{Base: service.Base{InternalSecret: long}, WorkspaceURL: "http://svc-workspace:8080"}, false},
		{"workspace url without scheme", svcnotify.Config{Base: service.Base{InternalSecret: long}, WorkspaceURL: "svc-workspace:8080"}, true},
		{"identity url", svcnotify.Config{Base: service.Base{InternalSecret: long}, IdentityURL: "http://svc-identity:8080"}, false},
		{"identity url without scheme", svcnotify.Config{Base: service.Base{InternalSecret: long}, IdentityURL: "svc-identity:8080"}, true},
		{"identity url with a path", svcnotify.Config{Base: service.Base{InternalSecret: long}, IdentityURL: "http://svc-identity:8080/v2"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.cfg.Validate(); (err != nil) != tt.wantErr {
				t.Fatalf("Validate() = %v, wantErr %v", err, tt.wantErr)
			}
		})
	}
	if err := (&svcnotify.Config{}).ValidateStores(); err == nil {
		t.Fatal("ValidateStores accepted empty store addresses")
	}
}

func TestWrongPrincipal(t *testing.T) {
	e := newEnv(t, svcnotify.Config{})
	tests := []struct {
		name, principal, path string
	}{
		{"service calls a public operation", identity, "/v1/notifications/get"},
		{"operator calls a public operation", internalauth.Operator, "/v2/notifications/add"},
		{"workspace calls an internal route", ws1, svcnotify.UserDataPath},
		{"workspace migrates", ws1, docmigrate.MigratePath},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.Fails(tt.principal, tt.path, map[string]any{"organizationId": "o1"}, http.StatusForbidden, "PERMISSION_DENIED")
		})
	}
	req := httptest.NewRequest(http.MethodPost, "/v1/notifications/get", strings.NewReader(`{"data":{"organizationId":"o1"}}`))
	rec := httptest.NewRecorder()
	e.H.ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden {
		t.Fatalf("unsigned request: HTTP %d", rec.Code)
	}
}
