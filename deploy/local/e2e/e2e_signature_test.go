package e2e

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestPermissionSignature(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	perms := func() []map[string]any {
		return []map[string]any{
			{"userId": "u1", "resourceId": "doc-1", "type": "document", "hasAccess": true, "accessRole": "editor", "expiresAt": 1767225600000},
			{"userId": "u1", "resourceId": "acme", "type": "organization", "hasAccess": false},
		}
	}
	sign := func(c creds, p any) string {
		t.Helper()
		sig, _ := s.okAs(c, "/v2/auth/generate_signature", map[string]any{"permissions": p}).DataMap()["signature"].(string)
		if !isHexID(sig, 64) {
			t.Fatalf("signature %q: want 64 lowercase hex digits", sig)
		}
		return sig
	}
	verify := func(c creds, p any, sig string) bool {
		t.Helper()
		v, ok := s.okAs(c, "/v2/auth/signature/verify", map[string]any{"permissions": p, "signature": sig}).DataMap()["valid"].(bool)
		if !ok {
			t.Fatal("verify did not answer a boolean valid")
		}
		return v
	}
	sig := sign(s.ws, perms())

	t.Run("deterministic and verifiable", func(t *testing.T) {
		if again := sign(s.ws, perms()); again != sig {
			t.Fatalf("same permissions signed %s then %s", sig, again)
		}
		if !verify(s.ws, perms(), sig) {
			t.Fatal("own signature does not verify")
		}
		// Key order in the request does not matter: the canonical form fixes it.
		reordered := `[{"type":"document","expiresAt":1767225600000,"accessRole":"editor","resourceId":"doc-1","hasAccess":true,"userId":"u1"},` +
			`{"hasAccess":false,"type":"organization","resourceId":"acme","userId":"u1"}]`
		if !verify(s.ws, json.RawMessage(reordered), sig) {
			t.Fatal("same permissions with other key order do not verify")
		}
	})

	t.Run("any change invalidates", func(t *testing.T) {
		changes := map[string]func(p []map[string]any) []map[string]any{
			"userId":               func(p []map[string]any) []map[string]any { p[0]["userId"] = "u2"; return p },
			"resourceId":           func(p []map[string]any) []map[string]any { p[0]["resourceId"] = "doc-2"; return p },
			"type":                 func(p []map[string]any) []map[string]any { p[1]["type"] = "folder"; return p },
			"hasAccess":            func(p []map[string]any) []map[string]any { p[1]["hasAccess"] = true; return p },
			"accessRole":           func(p []map[string]any) []map[string]any { p[0]["accessRole"] = "viewer"; return p },
			"accessRole removed":   func(p []map[string]any) []map[string]any { delete(p[0], "accessRole"); return p },
			"expiresAt":            func(p []map[string]any) []map[string]any { p[0]["expiresAt"] = 1767225600001; return p },
			"expiresAt removed":    func(p []map[string]any) []map[string]any { delete(p[0], "expiresAt"); return p },
			"expiresAt added":      func(p []map[string]any) []map[string]any { p[1]["expiresAt"] = 1767225600000; return p },
			"order":                func(p []map[string]any) []map[string]any { return []map[string]any{p[1], p[0]} },
			"entry removed":        func(p []map[string]any) []map[string]any { return p[:1] },
			"entry added":          func(p []map[string]any) []map[string]any { return append(p, p[1]) },
			"case of a resourceId": func(p []map[string]any) []map[string]any { p[1]["resourceId"] = "Acme"; return p },
		}
		for name, change := range changes {
			t.Run(name, func(t *testing.T) {
				if verify(s.ws, change(perms()), sig) {
					t.Fatalf("changed %s still verifies", name)
				}
			})
		}
		flipped := []byte(sig)
		if flipped[10] == '0' {
			flipped[10] = '1'
		} else {
			flipped[10] = '0'
		}
		if verify(s.ws, perms(), string(flipped)) {
			t.Fatal("altered signature verifies")
		}
		if verify(s.ws, perms(), strings.ToUpper(sig)+"00") {
			t.Fatal("extended signature verifies")
		}
	})

	t.Run("another workspace signs differently", func(t *testing.T) {
		other := s.newWorkspace()
		otherSig := sign(other, perms())
		if otherSig == sig {
			t.Fatal("two workspaces produced the same signature")
		}
		if verify(other, perms(), sig) {
			t.Fatal("workspace 2 accepts workspace 1's signature")
		}
		if !verify(other, perms(), otherSig) || !verify(s.ws, perms(), sig) {
			t.Fatal("a workspace rejects its own signature")
		}
	})

	t.Run("errors", func(t *testing.T) {
		s.fails("/v2/auth/generate_signature", map[string]any{}, "INVALID_ARGUMENT", 400)
		s.fails("/v2/auth/signature/verify", map[string]any{"permissions": perms()}, "INVALID_ARGUMENT", 400)
		orgRole := []any{map[string]any{"userId": "u1", "resourceId": "acme", "type": "organization", "hasAccess": true, "accessRole": "editor"}}
		s.fails("/v2/auth/generate_signature", map[string]any{"permissions": orgRole}, "INVALID_ARGUMENT", 400)
	})
}

// jwtPart decodes one base64url segment of a JWT into a map.
func jwtPart(t *testing.T, token string, i int) map[string]any {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("token %q does not have three parts", token)
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[i])
	if err != nil {
		t.Fatalf("token part %d: %v", i, err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("token part %d is not JSON: %q", i, raw)
	}
	return m
}

func TestGenerateToken(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	later := time.Now().Add(24 * time.Hour).UnixMilli()
	body := map[string]any{
		"userId":         "alice",
		"userProperties": map[string]any{"name": "Ada", "email": "ada@example.com", "isAdmin": true, "team": "core"},
		"permissions": map[string]any{"resources": []any{
			map[string]any{"type": "organization", "id": "tok-org"},
			map[string]any{"type": "document", "id": "tok-doc", "organizationId": "tok-org", "accessRole": "viewer", "expiresAt": later},
			map[string]any{"type": "folder", "id": "tok-folder", "organizationId": "tok-org", "accessRole": "editor"},
		}},
	}
	token, _ := s.ok("/v2/auth/generate_token", body).DataMap()["token"].(string)
	if head := jwtPart(t, token, 0); head["alg"] != "HS256" {
		t.Fatalf("token header %v, want HS256", head)
	}
	claims := jwtPart(t, token, 1)

	t.Run("claims", func(t *testing.T) {
		if claims["sub"] != "alice" || claims["iss"] != "opencollab" {
			t.Fatalf("sub/iss = %v/%v", claims["sub"], claims["iss"])
		}
		if wid, _ := claims["wid"].(string); wid == "" {
			t.Fatalf("wid missing: %v", claims)
		}
		iat, _ := claims["iat"].(float64)
		exp, _ := claims["exp"].(float64)
		if exp-iat != 48*3600 {
			t.Fatalf("exp-iat = %v, want 172800 (48 h)", exp-iat)
		}
		if d := time.Since(time.Unix(int64(iat), 0)); d < -time.Hour || d > time.Hour {
			t.Fatalf("iat %v is not in Unix seconds around now", iat)
		}
		user, _ := claims["user"].(map[string]any)
		if user["name"] != "Ada" || user["email"] != "ada@example.com" || user["isAdmin"] != true || user["team"] != "core" {
			t.Fatalf("user claim = %v", user)
		}
		res, _ := claims["resources"].([]any)
		if len(res) != 3 {
			t.Fatalf("resources = %v", claims["resources"])
		}
		want := []map[string]any{
			{"type": "organization", "id": "tok-org", "accessRole": "editor"},
			{"type": "document", "id": "tok-doc", "organizationId": "tok-org", "accessRole": "viewer", "expiresAt": float64(later)},
			{"type": "folder", "id": "tok-folder", "organizationId": "tok-org", "accessRole": "editor"},
		}
		for i, w := range want {
			got, _ := res[i].(map[string]any)
			if len(got) != len(w) {
				t.Fatalf("resources[%d] = %v, want %v", i, got, w)
			}
			for k, v := range w {
				if got[k] != v {
					t.Fatalf("resources[%d].%s = %v, want %v", i, k, got[k], v)
				}
			}
		}
	})

	t.Run("workspace id is per workspace", func(t *testing.T) {
		again, _ := s.ok("/v2/auth/generate_token", body).DataMap()["token"].(string)
		if jwtPart(t, again, 1)["wid"] != claims["wid"] {
			t.Fatal("same workspace, different wid")
		}
		other, _ := s.okAs(s.newWorkspace(), "/v2/auth/generate_token", body).DataMap()["token"].(string)
		if jwtPart(t, other, 1)["wid"] == claims["wid"] {
			t.Fatal("two workspaces share a wid")
		}
	})

	t.Run("stores nothing", func(t *testing.T) {
		if orgs := objects(t, s.ok("/v2/organizations/get", map[string]any{})); len(orgs) != 0 {
			t.Fatalf("generate_token created organizations: %v", orgs)
		}
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": "tok-org"}))
	})

	t.Run("no resources", func(t *testing.T) {
		b := with(body, "permissions", map[string]any{"resources": []any{}})
		tok, _ := s.ok("/v2/auth/generate_token", b).DataMap()["token"].(string)
		if res, ok := jwtPart(t, tok, 1)["resources"].([]any); !ok || len(res) != 0 {
			t.Fatalf("resources claim = %v, want []", jwtPart(t, tok, 1)["resources"])
		}
	})
}
