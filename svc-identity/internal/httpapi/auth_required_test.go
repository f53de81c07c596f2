package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/opencollab/backend/pkg/internalauth"
)

func TestEveryOperationNeedsAWorkspaceSignature(t *testing.T) {
	e := newEnv(t)
	for _, path := range []string{"/v2/users/add", "/v2/auth/generate_signature", "/v2/organizations/get"} {
		for name, sign := range map[string]func(http.Header){
			"unsigned": func(http.Header) {},
			"operator": func(h http.Header) { e.signer.Sign(h, internalauth.Operator) },
			"forged": func(h http.Header) {
				internalauth.NewSigner("another-secret-123").Sign(h, internalauth.Workspace("ws1"))
			},
		} {
			req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(`{"data":{}}`))
			sign(req.Header)
			rec := httptest.NewRecorder()
			e.h.ServeHTTP(rec, req)
			if rec.Code != http.StatusForbidden || !strings.Contains(rec.Body.String(), "PERMISSION_DENIED") {
				t.Errorf("%s %s: %d %s", name, path, rec.Code, rec.Body.String())
			}
		}
	}
}

func TestUnknownPathAndMethod(t *testing.T) {
	e := newEnv(t)
	e.fails("ws1", "/v2/users/nope", map[string]any{}, "NOT_FOUND")
	req := httptest.NewRequest(http.MethodGet, "/v2/users/get", nil)
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "INVALID_ARGUMENT") {
		t.Fatalf("GET: %d %s", rec.Code, rec.Body.String())
	}
}
