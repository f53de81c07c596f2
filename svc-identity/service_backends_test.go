package svcidentity_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/opencollab/backend/pkg/config"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/service"
	"github.com/opencollab/backend/pkg/testenv"
	svcidentity "github.com/opencollab/backend/svc-identity"
)

func TestConfigReadsDownstreamURLs(t *testing.T) {
	for k, v := range map[string]string{
		"INTERNAL_SECRET": secret, "WORKSPACE_URL": "http://ws", "CONTENT_URL": "http://content", "NOTIFY_URL": "http://notify",
	} {
		t.Setenv(k, v)
	}
	var cfg svcidentity.Config
	if err := config.Load(t.Context(), &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.WorkspaceURL != "http://ws" || cfg.ContentURL != "http://content" || cfg.NotifyURL != "http://notify" {
		t.Fatalf("cfg = %+v", cfg)
	}
}

func TestServiceWithoutDownstreams(t *testing.T) {
	svc, err := svcidentity.New(t.Context(), svcidentity.Config{Base: service.Base{InternalSecret: secret}},
		svcidentity.Deps{DB: testenv.Mongo(t), Redis: testenv.Redis(t)})
	if err != nil {
		t.Fatal(err)
	}
	post := func(principal, path, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
		internalauth.NewSigner(secret).Sign(req.Header, principal)
		rec := httptest.NewRecorder()
		svc.Handler().ServeHTTP(rec, req)
		return rec
	}
	ws := internalauth.Workspace("ws1")
	// Without WORKSPACE_URL every feature is on.
	if rec := post(ws, "/v2/users/get", `{"data":{"organizationId":"o1"}}`); rec.Code != http.StatusOK {
		t.Fatalf("users/get: %d %s", rec.Code, rec.Body.String())
	}
	// Without CONTENT_URL and NOTIFY_URL user data is unavailable, not empty.
	if rec := post(ws, "/v2/users/data/get", `{"data":{"organizationId":"o1","userId":"u1"}}`); rec.Code != http.StatusServiceUnavailable ||
		!strings.Contains(rec.Body.String(), `"UNAVAILABLE"`) {
		t.Fatalf("users/data/get: %d %s", rec.Code, rec.Body.String())
	}
	body := `{"data":{"workspaceId":"ws1","organizationId":"o1","documentId":"d1"}}`
	if rec := post(internalauth.Service("content"), "/internal/documents/has-data", body); rec.Code != http.StatusOK ||
		!strings.Contains(rec.Body.String(), `"hasData":false`) {
		t.Fatalf("has-data: %d %s", rec.Code, rec.Body.String())
	}
}
