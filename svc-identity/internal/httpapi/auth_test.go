package httpapi_test

import (
	"testing"
	"time"

	"github.com/opencollab/backend/svc-identity/internal/signing"
)

func TestSignatureRoundTrip(t *testing.T) {
	e := newEnv(t)
	perms := []any{
		map[string]any{"userId": "u1", "resourceId": "d1", "type": "document", "hasAccess": true, "accessRole": "viewer", "expiresAt": 1767225600000},
		map[string]any{"userId": "u1", "resourceId": "o1", "type": "organization", "hasAccess": false},
	}
	r := e.ok("ws1", "/v2/auth/generate_signature", map[string]any{"permissions": perms})
	sig, _ := r.dataMap()["signature"].(string)
	if len(sig) != 64 {
		t.Fatalf("signature = %q, want 64 hex digits", sig)
	}
	// The documented canonical form, keyed with the workspace's secret.
	sec, err := signing.NewSecretStore(e.db).Get(t.Context(), "ws1")
	if err != nil {
		t.Fatal(err)
	}
	exp := int64(1767225600000)
	want := signing.Sign(sec.Signature, []signing.Permission{
		{UserID: "u1", ResourceID: "d1", Type: "document", HasAccess: ptr(true), AccessRole: "viewer", ExpiresAt: &exp},
		{UserID: "u1", ResourceID: "o1", Type: "organization", HasAccess: ptr(false)},
	})
	if sig != want {
		t.Fatalf("signature %s, want %s", sig, want)
	}

	verify := func(ws string, perms []any, sig string) any {
		return e.ok(ws, "/v2/auth/signature/verify", map[string]any{"permissions": perms, "signature": sig}).dataMap()["valid"]
	}
	if v := verify("ws1", perms, sig); v != true {
		t.Fatalf("valid = %v", v)
	}
	if v := verify("ws2", perms, sig); v != false {
		t.Fatal("another workspace's secret verified the signature")
	}
	tampered := []any{perms[0], map[string]any{"userId": "u1", "resourceId": "o1", "type": "organization", "hasAccess": true}}
	if v := verify("ws1", tampered, sig); v != false {
		t.Fatal("tampered permissions verified")
	}

	for name, p := range map[string]map[string]any{
		"accessRole on an organization": {"userId": "u1", "resourceId": "o1", "type": "organization", "hasAccess": true, "accessRole": "editor"},
		"missing hasAccess":             {"userId": "u1", "resourceId": "o1", "type": "organization"},
		"unknown type":                  {"userId": "u1", "resourceId": "o1", "type": "team", "hasAccess": true},
		"unknown role":                  {"userId": "u1", "resourceId": "d1", "type": "document", "hasAccess": true, "accessRole": "owner"},
		"hasAccess as a string":         {"userId": "u1", "resourceId": "o1", "type": "organization", "hasAccess": "yes"},
		"blank userId":                  {"userId": " ", "resourceId": "o1", "type": "organization", "hasAccess": true},
	} {
		t.Run(name, func(t *testing.T) {
			e.fails("ws1", "/v2/auth/generate_signature", map[string]any{"permissions": []any{p}}, "INVALID_ARGUMENT")
		})
	}
	e.fails("ws1", "/v2/auth/generate_signature", map[string]any{"permissions": []any{}}, "INVALID_ARGUMENT")
	e.fails("ws1", "/v2/auth/signature/verify", map[string]any{"permissions": perms}, "INVALID_ARGUMENT")
}

func ptr[T any](v T) *T { return &v }

func TestGenerateToken(t *testing.T) {
	e := newEnv(t)
	later := e.now.Add(time.Hour).UnixMilli()
	body := map[string]any{
		"userId":         "u1",
		"userProperties": map[string]any{"name": "Ada", "email": "ada@example.com", "isAdmin": true, "team": "core"},
		"permissions": map[string]any{"resources": []any{
			map[string]any{"type": "organization", "id": "o1"},
			map[string]any{"type": "document", "id": "d1", "organizationId": "o1", "accessRole": "viewer", "expiresAt": later},
		}},
	}
	r := e.ok("ws1", "/v2/auth/generate_token", body)
	token, _ := r.dataMap()["token"].(string)
	sec, _ := signing.NewSecretStore(e.db).Get(t.Context(), "ws1")
	claims, err := signing.ParseToken(sec.JWT, token, e.now)
	if err != nil {
		t.Fatalf("token does not parse: %v", err)
	}
	if claims.WorkspaceID != "ws1" || claims.UserID != "u1" || claims.User["email"] != "ada@example.com" || claims.User["team"] != "core" {
		t.Fatalf("claims = %+v", claims)
	}
	if len(claims.Resources) != 2 || claims.Resources[0].AccessRole != "editor" || claims.Resources[1].AccessRole != "viewer" ||
		claims.Resources[1].OrganizationID != "o1" || *claims.Resources[1].ExpiresAt != later {
		t.Fatalf("resources = %+v", claims.Resources)
	}
	if _, err := signing.ParseToken(sec.JWT, token, e.now.Add(49*time.Hour)); err == nil {
		t.Fatal("token still valid after 48 h")
	}
	// A token writes nothing: its grants are claims decided when it is
	// used, so the organization and document it names (which do not
	// exist) are not created, and no membership is stored.
	for name, n := range e.records() {
		if n != 0 {
			t.Fatalf("generate_token wrote %d %s", n, name)
		}
	}

	for name, mutate := range map[string]func(map[string]any){
		"blank userId":      func(b map[string]any) { b["userId"] = "  " },
		"no userProperties": func(b map[string]any) { delete(b, "userProperties") },
		"blank name":        func(b map[string]any) { b["userProperties"] = map[string]any{"name": "", "email": "a@b.co"} },
		"bad email":         func(b map[string]any) { b["userProperties"] = map[string]any{"name": "A", "email": "not-an-email"} },
		"isAdmin not a boolean": func(b map[string]any) {
			b["userProperties"] = map[string]any{"name": "A", "email": "a@b.co", "isAdmin": "yes"}
		},
		"no permissions":       func(b map[string]any) { delete(b, "permissions") },
		"document without org": func(b map[string]any) { b["permissions"] = resources(map[string]any{"type": "document", "id": "d1"}) },
		"folder without org":   func(b map[string]any) { b["permissions"] = resources(map[string]any{"type": "folder", "id": "f1"}) },
		"expiry in the past": func(b map[string]any) {
			b["permissions"] = resources(map[string]any{"type": "organization", "id": "o1", "expiresAt": 1000})
		},
		"negative expiry": func(b map[string]any) {
			b["permissions"] = resources(map[string]any{"type": "organization", "id": "o1", "expiresAt": -5})
		},
		"unknown role": func(b map[string]any) {
			b["permissions"] = resources(map[string]any{"type": "organization", "id": "o1", "accessRole": "admin"})
		},
		"whitespace resource id": func(b map[string]any) {
			b["permissions"] = resources(map[string]any{"type": "organization", "id": "   "})
		},
	} {
		t.Run(name, func(t *testing.T) {
			b := map[string]any{}
			for k, v := range body {
				b[k] = v
			}
			mutate(b)
			e.fails("ws1", "/v2/auth/generate_token", b, "INVALID_ARGUMENT")
		})
	}
	// Unwrapped body.
	e.fails("ws1", "/v2/auth/generate_token", `{"userId":"u1"}`, "INVALID_ARGUMENT")
	// No resources: a token without access.
	e.ok("ws1", "/v2/auth/generate_token", map[string]any{
		"userId": "u1", "userProperties": map[string]any{"name": "A", "email": "a@b.co"}, "permissions": map[string]any{"resources": []any{}},
	})
}

func resources(rs ...any) map[string]any { return map[string]any{"resources": rs} }
