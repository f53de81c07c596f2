package e2e

import (
	"strings"
	"testing"
	"time"
)

func TestPermissionsAddGetRemove(t *testing.T) {
	s := startStack(t)
	const org = "acme"
	soon := time.Now().Add(6 * time.Hour).UnixMilli()
	get := func(t *testing.T, data map[string]any) map[string]any {
		t.Helper()
		return s.ok("/v2/auth/permissions/get", with(data, "organizationId", org)).DataMap()
	}

	t.Run("add refuses a missing folder or document", func(t *testing.T) {
		for _, missing := range []map[string]any{
			{"type": "document", "id": "d1", "organizationId": org},
			{"type": "folder", "id": "f1", "organizationId": org},
		} {
			r := s.fails("/v2/auth/permissions/add", map[string]any{"user": map[string]any{"userId": "u1"}, "permissions": map[string]any{"resources": []any{
				map[string]any{"type": "organization", "id": org}, missing,
			}}}, "NOT_FOUND", 404)
			if msg, _ := r.Error["message"].(string); !strings.Contains(msg, missing["id"].(string)+" does not exist") {
				t.Fatalf("message %q does not name %v", msg, missing)
			}
		}
		// Nothing was written: not the organization either.
		if got := field(t, s.ok("/v2/organizations/get", map[string]any{}), "id"); len(got) != 0 {
			t.Fatalf("organizations = %v", got)
		}
	})

	t.Run("add grants existing resources", func(t *testing.T) {
		s.ok("/v2/organizations/folders/add", map[string]any{"organizationId": org, "createOrganization": true,
			"folders": []any{map[string]any{"folderId": "f1"}}})
		s.ok("/v2/organizations/documents/add", map[string]any{"organizationId": org, "documents": []any{map[string]any{"documentId": "d1"}}})
		r := s.ok("/v2/auth/permissions/add", map[string]any{"user": map[string]any{"userId": "u1"}, "permissions": map[string]any{"resources": []any{
			map[string]any{"type": "organization", "id": org, "accessRole": "viewer"},
			map[string]any{"type": "document", "id": "d1", "organizationId": org, "accessRole": "editor", "expiresAt": soon},
			map[string]any{"type": "folder", "id": "f1", "organizationId": org},
		}}})
		if d, present := r.Result["data"]; present {
			t.Fatalf("permissions/add answered data %v; the spec has status and message only", d)
		}
		if got := field(t, s.ok("/v2/organizations/get", map[string]any{}), "id"); len(got) != 1 || got[0] != org {
			t.Fatalf("organizations = %v", got)
		}
		if got := field(t, s.ok("/v2/organizations/documents/get", map[string]any{"organizationId": org}), "id"); len(got) != 1 || got[0] != "d1" {
			t.Fatalf("documents = %v", got)
		}
		if got := field(t, s.ok("/v2/organizations/folders/get", map[string]any{"organizationId": org}), "folderId"); len(got) != 1 || got[0] != "f1" {
			t.Fatalf("folders = %v", got)
		}
		// A grant is a membership: users/get lists it.
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org}), "u1")
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "documentId": "d1"}), "u1")
	})

	t.Run("add keeps an existing profile", func(t *testing.T) {
		s.ok("/v2/users/add", map[string]any{"organizationId": org, "users": []any{map[string]any{"userId": "named", "name": "Nia", "email": "nia@example.com"}}})
		s.ok("/v2/auth/permissions/add", map[string]any{"user": map[string]any{"userId": "named"}, "permissions": map[string]any{"resources": []any{
			map[string]any{"type": "document", "id": "d1", "organizationId": org},
		}}})
		got := objects(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "userIds": []string{"named"}}))
		if len(got) != 1 || got[0]["name"] != "Nia" || got[0]["email"] != "nia@example.com" {
			t.Fatalf("permissions/add changed the profile: %v", got)
		}
		s.ok("/v1/users/delete", map[string]any{"organizationId": org, "userIds": []string{"named"}})
	})

	t.Run("fixture", func(t *testing.T) {
		s.ok("/v2/organizations/folders/add", map[string]any{"organizationId": org, "folders": []any{
			map[string]any{"folderId": "vault", "accessType": "restricted"},
			map[string]any{"folderId": "inner", "parentFolderId": "vault"},
		}})
		expectItems(t, s.ok("/v2/organizations/documents/add", map[string]any{"organizationId": org, "documents": []any{
			map[string]any{"documentId": "secret", "accessType": "restricted"},
			map[string]any{"documentId": "open"},
			map[string]any{"documentId": "pub", "accessType": "public"},
		}}), map[string]bool{"secret": true, "open": true, "pub": true})
		s.ok("/v2/organizations/documents/add", map[string]any{"organizationId": org, "folderId": "inner",
			"documents": []any{map[string]any{"documentId": "deep"}}})
		s.ok("/v2/organizations/documents/add", map[string]any{"organizationId": org, "folderId": "f1",
			"documents": []any{map[string]any{"documentId": "in-f1"}}})
		// u3: organization editor, viewer of open: the stronger role wins.
		s.ok("/v2/auth/permissions/add", map[string]any{"user": map[string]any{"userId": "u3"}, "permissions": map[string]any{"resources": []any{
			map[string]any{"type": "organization", "id": org, "accessRole": "editor"},
			map[string]any{"type": "document", "id": "open", "organizationId": org, "accessRole": "viewer"},
		}}})
		// u4: member of the restricted folder vault only.
		s.ok("/v2/auth/permissions/add", map[string]any{"user": map[string]any{"userId": "u4"}, "permissions": map[string]any{"resources": []any{
			map[string]any{"type": "folder", "id": "vault", "organizationId": org, "accessRole": "viewer"},
		}}})
	})

	t.Run("get decides access", func(t *testing.T) {
		d := get(t, map[string]any{"userIds": []string{"u1", "u2", "u3", "u4"}, "folderIds": []string{"f1", "vault", "inner"},
			"documentIds": []string{"d1", "secret", "open", "pub", "deep", "in-f1"}})
		if len(d) != 4 {
			t.Fatalf("want an entry per user, got %v", d)
		}
		org1 := perm(t, d, "u1", "organization", org)
		expectRole(t, org1, "viewer")
		if org1["accessType"] != nil {
			t.Fatalf("organization entry carries accessType: %v", org1)
		}
		d1 := perm(t, d, "u1", "documents", "d1")
		expectRole(t, d1, "editor")
		if d1["expiresAt"] != float64(soon) || d1["accessType"] != "organizationPrivate" {
			t.Fatalf("u1 d1 = %v, want expiresAt %d and organizationPrivate", d1, soon)
		}
		if p := perm(t, d, "u1", "documents", "open"); p["accessRole"] != "viewer" || p["accessType"] != "organizationPrivate" {
			t.Fatalf("u1 open (through the organization) = %v", p)
		}
		// Restricted documents and documents under a restricted folder are not reached through the organization.
		secret := perm(t, d, "u1", "documents", "secret")
		expectDenied(t, secret)
		if secret["accessType"] != "restricted" {
			t.Fatalf("denied entry accessType = %v", secret["accessType"])
		}
		expectDenied(t, perm(t, d, "u1", "documents", "deep"))
		expectDenied(t, perm(t, d, "u1", "folders", "vault"))
		expectRole(t, perm(t, d, "u1", "folders", "f1"), "editor")
		expectRole(t, perm(t, d, "u1", "documents", "in-f1"), "editor") // folder grant beats the organization's viewer
		expectRole(t, perm(t, d, "u1", "documents", "pub"), "viewer")

		for _, sec := range []struct{ kind, id string }{{"organization", org}, {"folders", "f1"}, {"documents", "d1"}, {"documents", "open"}, {"documents", "secret"}} {
			expectDenied(t, perm(t, d, "u2", sec.kind, sec.id))
		}
		if p := perm(t, d, "u2", "documents", "pub"); p["accessRole"] != "viewer" || p["accessType"] != "public" {
			t.Fatalf("stranger on a public document = %v", p)
		}

		expectRole(t, perm(t, d, "u3", "documents", "open"), "editor")
		expectDenied(t, perm(t, d, "u3", "documents", "secret"))

		// A folder membership reaches every document below, restricted or not.
		expectRole(t, perm(t, d, "u4", "documents", "deep"), "viewer")
		expectRole(t, perm(t, d, "u4", "folders", "inner"), "viewer")
		expectDenied(t, perm(t, d, "u4", "documents", "open"))
	})

	t.Run("missing resources", func(t *testing.T) {
		for name, q := range map[string]map[string]any{
			"document": {"userIds": []string{"u1"}, "documentIds": []string{"d1", "ghost"}},
			"folder":   {"userIds": []string{"u1"}, "folderIds": []string{"ghost"}, "documentIds": []string{"d1"}},
		} {
			t.Run(name, func(t *testing.T) {
				r := s.fails("/v2/auth/permissions/get", with(q, "organizationId", org), "NOT_FOUND", 404)
				details, _ := r.Error["details"].(map[string]any)
				section := map[string]string{"document": "documents", "folder": "folders"}[name]
				if p := perm(t, details, "u1", section, "ghost"); p["errorCode"] != "does_not_exist" {
					t.Fatalf("ghost = %v", p)
				}
				expectRole(t, perm(t, details, "u1", "documents", "d1"), "editor")

				ok := get(t, with(q, "skipResourceExistenceValidation", true))
				if p := perm(t, ok, "u1", section, "ghost"); p["errorCode"] != "does_not_exist" {
					t.Fatalf("skip: ghost = %v", p)
				}
				expectRole(t, perm(t, ok, "u1", "documents", "d1"), "editor")
			})
		}
		s.fails("/v2/auth/permissions/get", map[string]any{"organizationId": "no-such-org", "userIds": []string{"u1"}}, "NOT_FOUND", 404)
	})

	t.Run("remove", func(t *testing.T) {
		r := s.ok("/v2/auth/permissions/remove", map[string]any{"userId": "u1", "permissions": map[string]any{"resources": []any{
			map[string]any{"type": "organization", "id": org},
			map[string]any{"type": "document", "id": "d1", "organizationId": org},
		}}})
		if d, present := r.Result["data"]; present {
			t.Fatalf("permissions/remove answered data %v", d)
		}
		d := get(t, map[string]any{"userIds": []string{"u1"}, "folderIds": []string{"f1"}, "documentIds": []string{"d1", "open", "in-f1"}})
		expectDenied(t, perm(t, d, "u1", "organization", org))
		expectDenied(t, perm(t, d, "u1", "documents", "d1"))
		expectDenied(t, perm(t, d, "u1", "documents", "open"))
		expectRole(t, perm(t, d, "u1", "folders", "f1"), "editor") // not removed
		expectRole(t, perm(t, d, "u1", "documents", "in-f1"), "editor")
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org}), "u3")

		// Removing what is already gone succeeds and changes nothing.
		s.ok("/v2/auth/permissions/remove", map[string]any{"userId": "u1", "permissions": map[string]any{"resources": []any{
			map[string]any{"type": "document", "id": "d1", "organizationId": org},
		}}})
		s.fails("/v2/auth/permissions/remove", map[string]any{"userId": "u1", "permissions": map[string]any{"resources": []any{
			map[string]any{"type": "document", "id": "in-f1"},
		}}}, "INVALID_ARGUMENT", 400)
		d = get(t, map[string]any{"userIds": []string{"u1"}, "documentIds": []string{"in-f1"}})
		expectRole(t, perm(t, d, "u1", "documents", "in-f1"), "editor")
	})
}

// TestExpiredGrantsGrantNothing waits for a grant to pass its expiresAt
// (epoch ms) and checks that it no longer grants or lists.
func TestExpiredGrantsGrantNothing(t *testing.T) {
	t.Parallel()
	s := startStack(t)
	s.ok("/v2/organizations/documents/add", map[string]any{"organizationId": "acme", "createOrganization": true,
		"documents": []any{map[string]any{"documentId": "d1"}}})
	expires := time.Now().UnixMilli() + 2000
	s.ok("/v2/auth/permissions/add", map[string]any{"user": map[string]any{"userId": "temp"}, "permissions": map[string]any{"resources": []any{
		map[string]any{"type": "document", "id": "d1", "organizationId": "acme", "expiresAt": expires},
	}}})
	s.ok("/v2/auth/permissions/add", map[string]any{"user": map[string]any{"userId": "lasting"}, "permissions": map[string]any{"resources": []any{
		map[string]any{"type": "document", "id": "d1", "organizationId": "acme"},
	}}})
	query := map[string]any{"organizationId": "acme", "userIds": []string{"temp", "lasting"}, "documentIds": []string{"d1"}}
	d := s.ok("/v2/auth/permissions/get", query).DataMap()
	if p := perm(t, d, "temp", "documents", "d1"); p["accessRole"] != "editor" || p["expiresAt"] != float64(expires) {
		t.Fatalf("before expiry: %v", p)
	}
	expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": "acme", "documentId": "d1"}), "lasting", "temp")

	for time.Now().UnixMilli() <= expires {
		time.Sleep(100 * time.Millisecond)
	}
	d = s.ok("/v2/auth/permissions/get", query).DataMap()
	expectDenied(t, perm(t, d, "temp", "documents", "d1"))
	expectRole(t, perm(t, d, "lasting", "documents", "d1"), "editor")
	expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": "acme", "documentId": "d1"}), "lasting")
	expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": "acme", "allDocuments": true}), "lasting")
	// users/delete still removes the expired membership.
	expectItems(t, s.ok("/v1/users/delete", map[string]any{"organizationId": "acme", "documentId": "d1", "userIds": []string{"temp"}}),
		map[string]bool{"temp": true})
}
