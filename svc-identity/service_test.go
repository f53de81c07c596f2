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

func TestMain(m *testing.M) { testenv.Main(m) }

const secret = "0123456789abcdef-internal"

func TestConfigDefaultsAndValidation(t *testing.T) {
	var cfg svcidentity.Config
	if err := config.Defaults(t.Context(), &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.ListenAddr != ":8080" || cfg.MongoDB != "" || cfg.LogLevel != "info" {
		t.Fatalf("defaults = %+v", cfg)
	}
	if err := cfg.Validate(); err == nil {
		t.Fatal("a missing INTERNAL_SECRET passed validation")
	}
	if err := cfg.ValidateStores(); err == nil {
		t.Fatal("missing store addresses passed validation")
	}
	if masked := config.Masked(&cfg); masked["INTERNAL_SECRET"] != "" {
		t.Fatalf("masked = %v", masked)
	}
}

func TestServiceServesSignedRequestsOnly(t *testing.T) {
	db, rdb := testenv.Mongo(t), testenv.Redis(t)
	cfg := svcidentity.Config{Base: service.Base{InternalSecret: secret}}
	svc, err := svcidentity.New(t.Context(), cfg, svcidentity.Deps{DB: db, Redis: rdb})
	if err != nil {
		t.Fatal(err)
	}
	// New is safe to run again (indexes are idempotent).
	if _, err := svcidentity.New(t.Context(), cfg, svcidentity.Deps{DB: db, Redis: rdb}); err != nil {
		t.Fatalf("second New: %v", err)
	}
	h := svc.Handler()

	for _, path := range []string{"/healthz", "/readyz"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("%s = %d", path, rec.Code)
		}
	}

	post := func(sign bool) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/v2/users/add",
			strings.NewReader(`{"data":{"organizationId":"o1","users":[{"userId":"u1"}]}}`))
		if sign {
			internalauth.NewSigner(secret).Sign(req.Header, internalauth.Workspace("ws1"))
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	if rec := post(false); rec.Code != http.StatusForbidden {
		t.Fatalf("unsigned: %d %s", rec.Code, rec.Body.String())
	}
	if rec := post(true); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"success":true`) {
		t.Fatalf("signed: %d %s", rec.Code, rec.Body.String())
	}
}

func TestNewRefusesMissingDeps(t *testing.T) {
	if _, err := svcidentity.New(t.Context(), svcidentity.Config{Base: service.Base{InternalSecret: secret}}, svcidentity.Deps{}); err == nil {
		t.Fatal("New without stores succeeded")
	}
	if _, err := svcidentity.New(t.Context(), svcidentity.Config{Base: service.Base{InternalSecret: "short"}}, svcidentity.Deps{}); err == nil {
		t.Fatal("New with a short secret succeeded")
	}
}
