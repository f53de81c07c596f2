package e2e

import (
	"fmt"
	"slices"
	"testing"
)

// orgRole reads user's organization-level role in org through
// permissions/get ("" when denied).
func (s *stack) orgRole(org, user string) string {
	s.t.Helper()
	r := s.ok("/v2/auth/permissions/get", map[string]any{"organizationId": org, "userIds": []string{user}})
	role, _ := perm(s.t, r.DataMap(), user, "organization", org)["accessRole"].(string)
	return role
}

func TestUsersLifecycle(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	const org = "acme"

	t.Run("add creates the organization and reports items", func(t *testing.T) {
		r := s.ok("/v2/users/add", map[string]any{"organizationId": org, "users": []any{
			map[string]any{"userId": "alice", "name": "Ada Lovelace", "email": "ada@example.com", "accessRole": "viewer"},
			map[string]any{"userId": "bob", "name": "Bob", "email": "bob@example.com"},
		}})
		expectItems(t, r, map[string]bool{"alice": true, "bob": true})
		a, b := item(t, r, "alice")["id"].(string), item(t, r, "bob")["id"].(string)
		if !isHexID(a, 32) || !isHexID(b, 32) || a == b {
			t.Fatalf("item ids %q %q: want distinct 32-digit hashes", a, b)
		}
		orgs := s.ok("/v2/organizations/get", map[string]any{"organizationIds": []string{org}})
		if got := field(t, orgs, "id"); !slices.Equal(got, []string{org}) {
			t.Fatalf("organization not created: %s", orgs.Raw)
		}
	})

	t.Run("get lists organization members with name and email", func(t *testing.T) {
		r := s.ok("/v2/users/get", map[string]any{"organizationId": org})
		got := objects(t, r)
		want := []map[string]any{
			{"userId": "alice", "name": "Ada Lovelace", "email": "ada@example.com"},
			{"userId": "bob", "name": "Bob", "email": "bob@example.com"},
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("users: want %v, got %v", want, got)
		}
		if tok, present := r.Result["nextPageToken"]; present && tok != nil {
			t.Fatalf("single page carries nextPageToken %v", tok)
		}
		if s.orgRole(org, "alice") != "viewer" || s.orgRole(org, "bob") != "editor" {
			t.Fatalf("roles: alice %q bob %q, want viewer and editor (default)", s.orgRole(org, "alice"), s.orgRole(org, "bob"))
		}
	})

	t.Run("re-adding without accessRole keeps the role", func(t *testing.T) {
		expectItems(t, s.ok("/v2/users/add", map[string]any{"organizationId": org, "users": userRefs("alice")}), map[string]bool{"alice": true})
		if got := s.orgRole(org, "alice"); got != "viewer" {
			t.Fatalf("alice role %q after re-add, want viewer", got)
		}
		got := objects(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "userIds": []string{"alice"}}))
		if len(got) != 1 || got[0]["name"] != "Ada Lovelace" || got[0]["email"] != "ada@example.com" {
			t.Fatalf("re-add without profile fields changed alice: %v", got)
		}
	})

	t.Run("missing document or folder needs the create flag", func(t *testing.T) {
		s.fails("/v2/users/add", map[string]any{"organizationId": org, "documentId": "d-missing", "users": userRefs("carol")}, "NOT_FOUND", 404)
		s.fails("/v2/users/add", map[string]any{"organizationId": org, "folderId": "f-missing", "users": userRefs("carol")}, "NOT_FOUND", 404)
		docs := s.ok("/v2/organizations/documents/get", map[string]any{"organizationId": org})
		folders := s.ok("/v2/organizations/folders/get", map[string]any{"organizationId": org})
		if len(objects(t, docs)) != 0 || len(objects(t, folders)) != 0 {
			t.Fatalf("refused users/add created resources: %s %s", docs.Raw, folders.Raw)
		}
	})

	t.Run("document and folder scopes", func(t *testing.T) {
		expectItems(t, s.ok("/v2/users/add", map[string]any{"organizationId": org, "documentId": "d1", "createDocument": true,
			"users": []any{map[string]any{"userId": "carol", "name": "Carol"}}}), map[string]bool{"carol": true})
		expectItems(t, s.ok("/v2/users/add", map[string]any{"organizationId": org, "folderId": "f1", "createFolder": true,
			"users": []any{map[string]any{"userId": "dave", "name": "Dave"}}}), map[string]bool{"dave": true})
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "documentId": "d1"}), "carol")
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "folderId": "f1"}), "dave")
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org}), "alice", "bob")
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "allDocuments": true}), "carol")
		grouped := s.ok("/v2/users/get", map[string]any{"organizationId": org, "allDocuments": true, "groupByDocumentId": true}).DataMap()
		d1, _ := grouped["d1"].([]any)
		if len(grouped) != 1 || len(d1) != 1 || d1[0].(map[string]any)["userId"] != "carol" {
			t.Fatalf("grouped users = %v, want {d1: [carol]}", grouped)
		}
	})

	t.Run("scope and filter errors", func(t *testing.T) {
		before := s.snapshot(s.ws, identityView{org: org, users: []string{"alice", "erin"}, folders: []string{"f1"}, docs: []string{"d1"}})
		both := map[string]any{"organizationId": org, "documentId": "d1", "folderId": "f1"}
		s.fails("/v2/users/add", with(both, "users", userRefs("erin")), "INVALID_ARGUMENT", 400)
		s.fails("/v2/users/update", with(both, "users", userRefs("alice")), "INVALID_ARGUMENT", 400)
		s.fails("/v1/users/update", with(both, "users", userRefs("alice")), "INVALID_ARGUMENT", 400)
		s.fails("/v1/users/delete", with(both, "userIds", []string{"carol"}), "INVALID_ARGUMENT", 400)
		s.fails("/v2/users/get", both, "INVALID_ARGUMENT", 400)
		s.fails("/v2/users/get", map[string]any{"organizationId": org, "groupByDocumentId": true}, "INVALID_ARGUMENT", 400)
		s.fails("/v2/users/get", map[string]any{"organizationId": org, "documentId": "d1", "allDocuments": true}, "INVALID_ARGUMENT", 400)
		s.fails("/v2/users/get", map[string]any{"organizationId": org, "userIds": ids("u", 31)}, "INVALID_ARGUMENT", 400)
		s.fails("/v2/users/get", map[string]any{"organizationId": org, "organizationUserGroupIds": ids("g", 31)}, "INVALID_ARGUMENT", 400)
		expectOK(t, s.call("/v2/users/get", map[string]any{"organizationId": org, "userIds": ids("u", 30)}))
		if after := s.snapshot(s.ws, identityView{org: org, users: []string{"alice", "erin"}, folders: []string{"f1"}, docs: []string{"d1"}}); after != before {
			t.Fatalf("refused requests changed state:\n%s\n---\n%s", before, after)
		}
	})

	t.Run("get filters by userIds", func(t *testing.T) {
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "userIds": []string{"bob", "nobody"}}), "bob")
	})

	t.Run("v2 update changes profile and role", func(t *testing.T) {
		r := s.ok("/v2/users/update", map[string]any{"organizationId": org, "users": []any{
			map[string]any{"userId": "alice", "name": "Ada King", "accessRole": "editor"},
			map[string]any{"userId": "zed", "name": "Zed"},
			map[string]any{"userId": "carol", "name": "Carol Org"}, // a document member only
		}})
		expectItems(t, r, map[string]bool{"alice": true, "zed": false, "carol": false})
		got := objects(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "userIds": []string{"alice"}}))
		if len(got) != 1 || got[0]["name"] != "Ada King" || got[0]["email"] != "ada@example.com" {
			t.Fatalf("alice after update = %v, want new name and the old email", got)
		}
		if role := s.orgRole(org, "alice"); role != "editor" {
			t.Fatalf("alice role %q, want editor", role)
		}
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "userIds": []string{"zed"}}))
		doc := objects(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "documentId": "d1"}))
		if len(doc) != 1 || doc[0]["name"] != "Carol" {
			t.Fatalf("non-member update changed carol: %v", doc)
		}
	})

	t.Run("v2 update at document scope", func(t *testing.T) {
		r := s.ok("/v2/users/update", map[string]any{"organizationId": org, "documentId": "d1", "users": []any{
			map[string]any{"userId": "carol", "accessRole": "viewer"},
		}})
		expectItems(t, r, map[string]bool{"carol": true})
		p := s.ok("/v2/auth/permissions/get", map[string]any{"organizationId": org, "userIds": []string{"carol"}, "documentIds": []string{"d1"}})
		expectRole(t, perm(t, p.DataMap(), "carol", "documents", "d1"), "viewer")
	})

	t.Run("v1 update ignores accessRole", func(t *testing.T) {
		r := s.ok("/v1/users/update", map[string]any{"organizationId": org, "users": []any{
			map[string]any{"userId": "bob", "name": "Robert", "accessRole": "viewer"},
			map[string]any{"userId": "zed", "name": "Zed"},
		}})
		expectItems(t, r, map[string]bool{"bob": true, "zed": false})
		got := objects(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "userIds": []string{"bob"}}))
		if len(got) != 1 || got[0]["name"] != "Robert" {
			t.Fatalf("bob after v1 update = %v", got)
		}
		if role := s.orgRole(org, "bob"); role != "editor" {
			t.Fatalf("v1 update changed bob's role to %q", role)
		}
	})

	t.Run("user groups", func(t *testing.T) {
		r := s.ok("/v2/organizations/usergroups/add", map[string]any{"organizationId": org, "organizationUserGroups": []any{
			map[string]any{"groupId": "eng", "groupName": "Engineering"}, map[string]any{"groupId": "ops"},
		}})
		expectItems(t, r, map[string]bool{"eng": true, "ops": true})
		if id, _ := item(t, r, "eng")["id"].(string); !isHexID(id, 32) {
			t.Fatalf("group id %q, want a 32-digit hash", id)
		}
		s.fails("/v2/organizations/usergroups/add", map[string]any{"organizationId": "no-such-org",
			"organizationUserGroups": []any{map[string]any{"groupId": "eng"}}}, "NOT_FOUND", 404)
		expectItems(t, s.ok("/v2/organizations/usergroups/add", map[string]any{"organizationId": "new-org", "createOrganization": true,
			"organizationUserGroups": []any{map[string]any{"groupId": "eng"}}}), map[string]bool{"eng": true})

		add := s.ok("/v1/organizations/usergroups/users/add", map[string]any{"organizationId": org, "organizationUserGroupId": "eng",
			"userIds": []string{"alice", "bob", "ghost"}})
		expectItems(t, add, map[string]bool{"alice": true, "bob": true, "ghost": false})
		if g := item(t, add, "alice")["organizationUserGroupId"]; g != "eng" {
			t.Fatalf("item organizationUserGroupId = %v", g)
		}
		s.fails("/v1/organizations/usergroups/users/add", map[string]any{"organizationId": org, "organizationUserGroupId": "nope",
			"userIds": []string{"alice"}}, "NOT_FOUND", 404)
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "organizationUserGroupIds": []string{"eng"}}), "alice", "bob")
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "organizationUserGroupIds": []string{"eng"}, "userIds": []string{"bob"}}), "bob")
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "organizationUserGroupIds": []string{"ops"}}))

		del := s.ok("/v1/organizations/usergroups/users/delete", map[string]any{"organizationId": org, "organizationUserGroupId": "eng",
			"userIds": []string{"bob", "ghost"}})
		expectItems(t, del, map[string]bool{"bob": true, "ghost": false})
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "organizationUserGroupIds": []string{"eng"}}), "alice")

		s.fails("/v1/organizations/usergroups/users/delete", map[string]any{"organizationId": org, "organizationUserGroupId": "eng"}, "INVALID_ARGUMENT", 400)
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "organizationUserGroupIds": []string{"eng"}}), "alice")

		all := s.ok("/v1/organizations/usergroups/users/delete", map[string]any{"organizationId": org, "organizationUserGroupId": "eng", "deleteAll": true})
		expectItems(t, all, map[string]bool{"alice": true})
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "organizationUserGroupIds": []string{"eng"}}))
		// The users stay in the organization.
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org}), "alice", "bob")
	})

	t.Run("delete", func(t *testing.T) {
		s.ok("/v2/users/add", map[string]any{"organizationId": org, "documentId": "d1", "users": userRefs("bob")})
		s.ok("/v1/organizations/usergroups/users/add", map[string]any{"organizationId": org, "organizationUserGroupId": "ops", "userIds": []string{"bob"}})
		s.ok("/v2/users/add", map[string]any{"organizationId": org, "folderId": "f1", "users": userRefs("bob")})

		r := s.ok("/v1/users/delete", map[string]any{"organizationId": org, "userIds": []string{"bob", "nobody"}})
		expectItems(t, r, map[string]bool{"bob": true, "nobody": false})
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org}), "alice")
		// Organization level removes the document membership and the group membership too.
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "documentId": "d1"}), "carol")
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "organizationUserGroupIds": []string{"ops"}}))
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "folderId": "f1"}), "dave")

		// Document level removes that membership only.
		s.ok("/v2/users/add", map[string]any{"organizationId": org, "documentId": "d1", "users": userRefs("alice")})
		r = s.ok("/v1/users/delete", map[string]any{"organizationId": org, "documentId": "d1", "userIds": []string{"alice", "dave"}})
		expectItems(t, r, map[string]bool{"alice": true, "dave": false})
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "documentId": "d1"}), "carol")
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org}), "alice")

		r = s.ok("/v1/users/delete", map[string]any{"organizationId": org, "folderId": "f1", "userIds": []string{"dave"}})
		expectItems(t, r, map[string]bool{"dave": true})
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "folderId": "f1"}))

		// Organization level also reaches users who are members of documents only.
		r = s.ok("/v1/users/delete", map[string]any{"organizationId": org, "userIds": []string{"carol"}})
		expectItems(t, r, map[string]bool{"carol": true})
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "allDocuments": true}))

		// Deleting again: nothing left to remove.
		r = s.ok("/v1/users/delete", map[string]any{"organizationId": org, "userIds": []string{"bob"}})
		expectItems(t, r, map[string]bool{"bob": false})
	})
}
