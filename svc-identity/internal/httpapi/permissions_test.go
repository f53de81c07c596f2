package httpapi_test

import (
	"maps"
	"strings"
	"testing"
	"time"
)

func TestPermissionsAddGetRemove(t *testing.T) {
	e := newEnv(t)
	later := e.now.Add(time.Hour).UnixMilli()
	e.ok("ws1", "/v2/organizations/folders/add", map[string]any{
		"organizationId": "o1", "createOrganization": true, "folders": []any{map[string]any{"folderId": "f1"}},
	})
	e.ok("ws1", "/v2/organizations/documents/add", map[string]any{
		"organizationId": "o1", "documents": []any{map[string]any{"documentId": "d1"}},
	})
	r := e.ok("ws1", "/v2/auth/permissions/add", map[string]any{
		"user": map[string]any{"userId": "u1"},
		"permissions": resources(
			map[string]any{"type": "organization", "id": "o1", "accessRole": "viewer"},
			map[string]any{"type": "folder", "id": "f1", "organizationId": "o1"},
			map[string]any{"type": "document", "id": "d1", "organizationId": "o1", "expiresAt": later},
		),
	})
	if _, present := r.result()["data"]; present {
		t.Fatalf("permissions/add returned data: %s", r.raw)
	}

	r = e.ok("ws1", "/v2/auth/permissions/get", map[string]any{
		"organizationId": "o1", "userIds": []string{"u1"}, "folderIds": []string{"f1"}, "documentIds": []string{"d1"},
	})
	u1 := r.item("u1")
	if org := u1["organization"].(map[string]any)["o1"].(map[string]any); org["accessRole"] != "viewer" || len(org) != 1 {
		t.Errorf("organization = %v, want only accessRole", org)
	}
	if f1 := u1["folders"].(map[string]any)["f1"].(map[string]any); f1["accessRole"] != "editor" || f1["accessType"] != "organizationPrivate" {
		t.Errorf("f1 = %v", f1)
	}
	if d1 := u1["documents"].(map[string]any)["d1"].(map[string]any); d1["accessRole"] != "editor" || d1["expiresAt"] != float64(later) {
		t.Errorf("d1 = %v", d1)
	}

	nf := e.fails("ws1", "/v2/auth/permissions/get", map[string]any{
		"organizationId": "o1", "userIds": []string{"u1"}, "documentIds": []string{"d1", "ghost"},
	}, "NOT_FOUND")
	details := nf.body["error"].(map[string]any)["details"].(map[string]any)
	ghost := details["u1"].(map[string]any)["documents"].(map[string]any)["ghost"].(map[string]any)
	if ghost["errorCode"] != "does_not_exist" {
		t.Fatalf("details = %v", details)
	}

	e.ok("ws1", "/v2/auth/permissions/remove", map[string]any{
		"userId": "u1", "permissions": resources(
			map[string]any{"type": "document", "id": "d1", "organizationId": "o1"},
			map[string]any{"type": "folder", "id": "f1"},
		),
	})
	r = e.ok("ws1", "/v2/auth/permissions/get", map[string]any{
		"organizationId": "o1", "userIds": []string{"u1"}, "folderIds": []string{"f1"}, "documentIds": []string{"d1"},
	})
	u1 = r.item("u1")
	// Still an organization viewer, so the documents are reachable as viewer.
	if d1 := u1["documents"].(map[string]any)["d1"].(map[string]any); d1["accessRole"] != "viewer" {
		t.Errorf("d1 after removal = %v", d1)
	}
	if f1 := u1["folders"].(map[string]any)["f1"].(map[string]any); f1["accessRole"] != "viewer" {
		t.Errorf("f1 after removal = %v", f1)
	}
}

// The interface creates a missing folder or document only where it says so
// (users/add with createFolder / createDocument): a grant of one is refused
// with NOT_FOUND naming it, and nothing is written.
func TestPermissionsAddOnMissingFolderOrDocumentIsNotFound(t *testing.T) {
	e := newEnv(t)
	e.ok("ws1", "/v2/organizations/documents/add", map[string]any{
		"organizationId": "o1", "createOrganization": true, "documents": []any{map[string]any{"documentId": "d1"}},
	})
	user := map[string]any{"userId": "u1"}
	for _, missing := range []map[string]any{
		{"type": "folder", "id": "nofolder", "organizationId": "o1"},
		{"type": "document", "id": "nodoc", "organizationId": "o1"},
		{"type": "document", "id": "d1", "organizationId": "o-none"},
	} {
		before := e.records()
		r := e.fails("ws1", "/v2/auth/permissions/add", map[string]any{"user": user, "permissions": resources(
			map[string]any{"type": "organization", "id": "o-new"},
			map[string]any{"type": "document", "id": "d1", "organizationId": "o1"},
			missing,
		)}, "NOT_FOUND")
		msg := r.body["error"].(map[string]any)["message"].(string)
		if !strings.Contains(msg, "permissions.resources[2]") || !strings.Contains(msg, missing["id"].(string)+" does not exist") {
			t.Errorf("message %q does not name the missing resource", msg)
		}
		if after := e.records(); !maps.Equal(before, after) {
			t.Fatalf("%v: wrote %v → %v", missing, before, after)
		}
	}
	// Removing a grant creates nothing either: it succeeds (the interface
	// gives permissions/remove no NOT_FOUND) and the resources stay absent.
	before := e.records()
	e.ok("ws1", "/v2/auth/permissions/remove", map[string]any{"userId": "u1", "permissions": resources(
		map[string]any{"type": "folder", "id": "nofolder", "organizationId": "o1"},
		map[string]any{"type": "document", "id": "nodoc", "organizationId": "o1"},
		map[string]any{"type": "organization", "id": "o-none"},
	)})
	if after := e.records(); !maps.Equal(before, after) {
		t.Fatalf("permissions/remove wrote %v → %v", before, after)
	}
}

func TestPermissionsInvalidInput(t *testing.T) {
	e := newEnv(t)
	user := map[string]any{"userId": "u1"}
	for name, tc := range map[string]struct {
		path string
		data map[string]any
	}{
		"add: no user":               {"/v2/auth/permissions/add", map[string]any{"permissions": resources(map[string]any{"type": "organization", "id": "o1"})}},
		"add: no resources":          {"/v2/auth/permissions/add", map[string]any{"user": user, "permissions": resources()}},
		"add: document without org":  {"/v2/auth/permissions/add", map[string]any{"user": user, "permissions": resources(map[string]any{"type": "document", "id": "d1"})}},
		"add: expired":               {"/v2/auth/permissions/add", map[string]any{"user": user, "permissions": resources(map[string]any{"type": "organization", "id": "o1", "expiresAt": 1})}},
		"add: fractional expiry":     {"/v2/auth/permissions/add", map[string]any{"user": user, "permissions": resources(map[string]any{"type": "organization", "id": "o1", "expiresAt": 1.5e10 + 0.5})}},
		"add: unknown type":          {"/v2/auth/permissions/add", map[string]any{"user": user, "permissions": resources(map[string]any{"type": "space", "id": "o1"})}},
		"remove: document no org":    {"/v2/auth/permissions/remove", map[string]any{"userId": "u1", "permissions": resources(map[string]any{"type": "document", "id": "d1"})}},
		"remove: no userId":          {"/v2/auth/permissions/remove", map[string]any{"permissions": resources(map[string]any{"type": "organization", "id": "o1"})}},
		"get: no organization":       {"/v2/auth/permissions/get", map[string]any{"userIds": []string{"u1"}}},
		"get: no users":              {"/v2/auth/permissions/get", map[string]any{"organizationId": "o1"}},
		"get: documentIds as string": {"/v2/auth/permissions/get", map[string]any{"organizationId": "o1", "userIds": []string{"u1"}, "documentIds": "d1"}},
	} {
		t.Run(name, func(t *testing.T) {
			before := e.records()
			e.fails("ws1", tc.path, tc.data, "INVALID_ARGUMENT")
			if after := e.records(); after["memberships"] != before["memberships"] || after["organizations"] != before["organizations"] {
				t.Fatalf("wrote: %v → %v", before, after)
			}
		})
	}
}
