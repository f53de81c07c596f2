package httpapi_test

import (
	"maps"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/svc-identity/internal/identity"
	"github.com/opencollab/backend/svc-identity/internal/store"
)

func TestAddUsersShapeAndProfile(t *testing.T) {
	e := newEnv(t)
	r := e.ok("ws1", "/v2/users/add", map[string]any{
		"organizationId": "o1",
		"users": []any{
			map[string]any{"userId": "u1", "name": "Ada Lovelace", "email": "ada@example.com", "accessRole": "viewer", "favouriteColour": "green"},
			map[string]any{"userId": "u2"},
		},
	})
	u1 := r.item("u1")
	if u1["success"] != true || u1["id"] != identity.UserRef("ws1", "u1") || u1["message"] == "" {
		t.Fatalf("u1 = %v", u1)
	}
	if r.item("u2")["success"] != true {
		t.Fatalf("u2 = %v", r.item("u2"))
	}
	stored := e.storedUser("u1")
	if stored.Initial != "AL" || stored.WorkspaceID != "ws1" || stored.Extra["favouriteColour"] != "green" {
		t.Fatalf("stored user = %+v", stored)
	}
	if u2 := e.storedUser("u2"); u2.Initial != "U" {
		t.Fatalf("u2 initial = %q, want U (from the user id)", u2.Initial)
	}
	// The organization was created; the role is on the membership.
	got := e.ok("ws1", "/v2/auth/permissions/get", map[string]any{"organizationId": "o1", "userIds": []string{"u1", "u2"}})
	perms := got.dataMap()
	if role := perms["u1"].(map[string]any)["organization"].(map[string]any)["o1"].(map[string]any)["accessRole"]; role != "viewer" {
		t.Fatalf("u1 role = %v", role)
	}
	if role := perms["u2"].(map[string]any)["organization"].(map[string]any)["o1"].(map[string]any)["accessRole"]; role != "editor" {
		t.Fatalf("u2 role = %v, want the default editor", role)
	}
}

func TestAddUsersDocumentAndFolderRules(t *testing.T) {
	e := newEnv(t)
	before := e.records()
	e.fails("ws1", "/v2/users/add", map[string]any{
		"organizationId": "o1", "documentId": "d1", "folderId": "f1", "users": []any{map[string]any{"userId": "u1"}},
	}, "INVALID_ARGUMENT")
	e.fails("ws1", "/v2/users/add", map[string]any{
		"organizationId": "o1", "documentId": "d1", "users": []any{map[string]any{"userId": "u1"}},
	}, "NOT_FOUND")
	e.fails("ws1", "/v2/users/add", map[string]any{
		"organizationId": "o1", "folderId": "f1", "users": []any{map[string]any{"userId": "u1"}},
	}, "NOT_FOUND")
	if after := e.records(); !maps.Equal(before, after) {
		t.Fatalf("a refused users/add wrote: %v → %v", before, after)
	}

	e.ok("ws1", "/v2/users/add", map[string]any{
		"organizationId": "o1", "documentId": "d1", "createDocument": true, "users": []any{map[string]any{"userId": "u1"}},
	})
	e.ok("ws1", "/v2/users/add", map[string]any{
		"organizationId": "o1", "folderId": "f1", "createFolder": true, "users": []any{map[string]any{"userId": "u2"}},
	})
	docs := e.ok("ws1", "/v2/organizations/documents/get", map[string]any{"organizationId": "o1", "documentIds": []string{"d1"}})
	if items := docs.data().([]any); items[0].(map[string]any)["accessType"] != "organizationPrivate" {
		t.Fatalf("created document = %v", items)
	}
	folders := e.ok("ws1", "/v2/organizations/folders/get", map[string]any{"organizationId": "o1"})
	if items := folders.data().([]any); len(items) != 1 || items[0].(map[string]any)["parentFolderId"] != "root" {
		t.Fatalf("created folder = %v", items)
	}
	// Document and folder members are not organization members.
	users := e.ok("ws1", "/v2/users/get", map[string]any{"organizationId": "o1"})
	if n := len(users.data().([]any)); n != 0 {
		t.Fatalf("organization has %d members, want 0", n)
	}
}

func TestRestrictedDocumentsAreExcludedFromOrganizationAccess(t *testing.T) {
	e := newEnv(t)
	e.addUsers("ws1", map[string]any{"organizationId": "o1"}, "member")
	e.ok("ws1", "/v2/organizations/documents/add", map[string]any{
		"organizationId": "o1",
		"documents":      []any{map[string]any{"documentId": "open"}, map[string]any{"documentId": "secret", "accessType": "restricted"}},
	})
	r := e.ok("ws1", "/v2/auth/permissions/get", map[string]any{
		"organizationId": "o1", "userIds": []string{"member"}, "documentIds": []string{"open", "secret"},
	})
	docs := r.item("member")["documents"].(map[string]any)
	if open := docs["open"].(map[string]any); open["accessRole"] != "editor" {
		t.Errorf("open = %v", open)
	}
	secret := docs["secret"].(map[string]any)
	if secret["errorCode"] != "permission_denied" || secret["accessType"] != "restricted" || secret["error"] == "" {
		t.Errorf("secret = %v, want denied", secret)
	}
	// Adding the user to the document itself grants it.
	e.addUsers("ws1", map[string]any{"organizationId": "o1", "documentId": "secret"}, "member")
	r = e.ok("ws1", "/v2/auth/permissions/get", map[string]any{
		"organizationId": "o1", "userIds": []string{"member"}, "documentIds": []string{"secret"},
	})
	if got := r.item("member")["documents"].(map[string]any)["secret"].(map[string]any); got["accessRole"] != "editor" {
		t.Errorf("secret after document-level add = %v", got)
	}
}

func TestUpdateUsers(t *testing.T) {
	e := newEnv(t)
	e.addUsers("ws1", map[string]any{"organizationId": "o1"}, "u1")
	r := e.ok("ws1", "/v2/users/update", map[string]any{
		"organizationId": "o1",
		"users":          []any{map[string]any{"userId": "u1", "name": "Grace Hopper", "accessRole": "viewer"}, map[string]any{"userId": "ghost"}},
	})
	if u1 := r.item("u1"); u1["success"] != true || u1["id"] != identity.UserRef("ws1", "u1") {
		t.Fatalf("u1 = %v", u1)
	}
	if ghost := r.item("ghost"); ghost["success"] != false || ghost["message"] == "" {
		t.Fatalf("ghost = %v", ghost)
	}
	got := e.ok("ws1", "/v2/users/get", map[string]any{"organizationId": "o1"}).data().([]any)[0].(map[string]any)
	if got["name"] != "Grace Hopper" || got["email"] != "u1@example.com" {
		t.Fatalf("user after update = %v (email must be kept)", got)
	}
	perms := e.ok("ws1", "/v2/auth/permissions/get", map[string]any{"organizationId": "o1", "userIds": []string{"u1"}})
	if role := perms.item("u1")["organization"].(map[string]any)["o1"].(map[string]any)["accessRole"]; role != "viewer" {
		t.Fatalf("role after update = %v", role)
	}
	e.fails("ws1", "/v2/users/update", map[string]any{
		"organizationId": "o1", "users": []any{map[string]any{"userId": "u1", "accessRole": "owner"}},
	}, "INVALID_ARGUMENT")
}

func TestUpdateUsersV1IgnoresAccessRole(t *testing.T) {
	e := newEnv(t)
	e.addUsers("ws1", map[string]any{"organizationId": "o1"}, "u1")
	r := e.ok("ws1", "/v1/users/update", map[string]any{
		"organizationId": "o1", "users": []any{map[string]any{"userId": "u1", "name": "New Name", "accessRole": "not-a-role"}},
	})
	if r.item("u1")["success"] != true {
		t.Fatalf("u1 = %v", r.item("u1"))
	}
	perms := e.ok("ws1", "/v2/auth/permissions/get", map[string]any{"organizationId": "o1", "userIds": []string{"u1"}})
	if role := perms.item("u1")["organization"].(map[string]any)["o1"].(map[string]any)["accessRole"]; role != "editor" {
		t.Fatalf("v1 changed the role to %v", role)
	}
	stored := e.storedUser("u1")
	if stored.Name != "New Name" || stored.Initial != "NN" || stored.Extra["accessRole"] != nil {
		t.Fatalf("stored = %+v", stored)
	}
}

func TestDeleteUsers(t *testing.T) {
	e := newEnv(t)
	e.addUsers("ws1", map[string]any{"organizationId": "o1"}, "u1", "u2")
	e.addUsers("ws1", map[string]any{"organizationId": "o1", "documentId": "d1"}, "u1", "u2")
	e.ok("ws1", "/v2/organizations/usergroups/add", map[string]any{"organizationId": "o1", "organizationUserGroups": []any{map[string]any{"groupId": "g1"}}})
	e.ok("ws1", "/v1/organizations/usergroups/users/add", map[string]any{"organizationId": "o1", "organizationUserGroupId": "g1", "userIds": []string{"u1"}})

	r := e.ok("ws1", "/v1/users/delete", map[string]any{"organizationId": "o1", "documentId": "d1", "userIds": []string{"u2", "ghost"}})
	if u2 := r.item("u2"); u2["success"] != true || u2["message"] == "" {
		t.Fatalf("u2 = %v", u2)
	}
	if ghost := r.item("ghost"); ghost["success"] != false || ghost["message"] != "User does not exist." {
		t.Fatalf("ghost = %v", ghost)
	}

	r = e.ok("ws1", "/v1/users/delete", map[string]any{"organizationId": "o1", "userIds": []string{"u1"}})
	if r.item("u1")["success"] != true {
		t.Fatalf("u1 = %v", r.item("u1"))
	}
	n, _ := e.db.Collection(store.MembershipsCollection).CountDocuments(t.Context(), bson.M{"userId": "u1"})
	g, _ := e.db.Collection(store.GroupMembersCollection).CountDocuments(t.Context(), bson.M{"userId": "u1"})
	if n != 0 || g != 0 {
		t.Fatalf("u1 keeps %d memberships and %d group memberships", n, g)
	}
	left := e.ok("ws1", "/v2/users/get", map[string]any{"organizationId": "o1"}).data().([]any)
	if len(left) != 1 || left[0].(map[string]any)["userId"] != "u2" {
		t.Fatalf("organization members = %v, want only u2", left)
	}
	e.fails("ws1", "/v1/users/delete", map[string]any{"organizationId": "o1", "documentId": "d1", "folderId": "f1", "userIds": []string{"u2"}}, "INVALID_ARGUMENT")
}

// storedUser is the user record as stored.
type storedUser struct {
	WorkspaceID string         `bson:"workspaceId"`
	Name        string         `bson:"name"`
	Initial     string         `bson:"initial"`
	Extra       map[string]any `bson:"extra"`
}

func (e *env) storedUser(userID string) storedUser {
	e.t.Helper()
	var u storedUser
	if err := e.db.Collection(store.UsersCollection).FindOne(e.t.Context(), bson.M{"userId": userID}).Decode(&u); err != nil {
		e.t.Fatalf("user %s: %v", userID, err)
	}
	return u
}
