package httpapi_test

import (
	"slices"
	"testing"
)

// TestWorkspacesCannotSeeEachOther uses the same organization, document
// and user ids in two workspaces.
func TestWorkspacesCannotSeeEachOther(t *testing.T) {
	e := newEnv(t)
	e.addUsers("ws1", map[string]any{"organizationId": "o1"}, "alice")
	e.addUsers("ws1", map[string]any{"organizationId": "o1", "documentId": "d1"}, "alice")
	e.addUsers("ws2", map[string]any{"organizationId": "o1"}, "bob")

	if got := userIDs(t, e.ok("ws2", "/v2/users/get", map[string]any{"organizationId": "o1"})); !slices.Equal(got, []string{"bob"}) {
		t.Fatalf("ws2 sees %v", got)
	}
	if got := userIDs(t, e.ok("ws2", "/v2/users/get", map[string]any{"organizationId": "o1", "allDocuments": true})); len(got) != 0 {
		t.Fatalf("ws2 sees document users %v", got)
	}
	upd := e.ok("ws2", "/v2/users/update", map[string]any{"organizationId": "o1", "users": []any{map[string]any{"userId": "alice", "name": "Mallory"}}})
	if upd.item("alice")["success"] != false {
		t.Fatalf("ws2 updated ws1's user: %v", upd.item("alice"))
	}
	del := e.ok("ws2", "/v1/users/delete", map[string]any{"organizationId": "o1", "userIds": []string{"alice"}})
	if del.item("alice")["success"] != false {
		t.Fatalf("ws2 deleted ws1's user: %v", del.item("alice"))
	}
	perms := e.ok("ws2", "/v2/auth/permissions/get", map[string]any{
		"organizationId": "o1", "userIds": []string{"alice"}, "skipResourceExistenceValidation": true, "documentIds": []string{"d1"},
	})
	if d1 := perms.item("alice")["documents"].(map[string]any)["d1"].(map[string]any); d1["errorCode"] != "does_not_exist" {
		t.Fatalf("ws2 sees ws1's document: %v", d1)
	}
	e.ok("ws2", "/v2/organizations/delete", map[string]any{"organizationIds": []string{"o1"}})

	if got := userIDs(t, e.ok("ws1", "/v2/users/get", map[string]any{"organizationId": "o1"})); !slices.Equal(got, []string{"alice"}) {
		t.Fatalf("ws1 after ws2's changes sees %v", got)
	}
	if got := e.storedUser("alice"); got.Name != "Name alice" {
		t.Fatalf("alice renamed to %q", got.Name)
	}
	orgs := e.ok("ws1", "/v2/organizations/get", map[string]any{}).data().([]any)
	if len(orgs) != 1 {
		t.Fatalf("ws1 organizations = %v", orgs)
	}
}
