package e2e

import (
	"slices"
	"testing"
)

func TestOrganizations(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	getOne := func(t *testing.T, id string) map[string]any {
		t.Helper()
		got := objects(t, s.ok("/v2/organizations/get", map[string]any{"organizationIds": []string{id}}))
		if len(got) != 1 || got[0]["id"] != id {
			t.Fatalf("organizations/get %s = %v", id, got)
		}
		return got[0]
	}

	var created float64
	t.Run("add", func(t *testing.T) {
		r := s.ok("/v2/organizations/add", map[string]any{"organizations": []any{
			map[string]any{"organizationId": "acme", "organizationName": "Acme", "plan": "pro", "seats": 12},
			map[string]any{"organizationId": "beta", "organizationName": "Beta"},
		}})
		expectItems(t, r, map[string]bool{"acme": true, "beta": true})
		a, b := item(t, r, "acme")["id"].(string), item(t, r, "beta")["id"].(string)
		if !isHexID(a, 32) || !isHexID(b, 32) || a == b {
			t.Fatalf("ids %q %q: want distinct internal hashes", a, b)
		}
		o := getOne(t, "acme")
		if o["organizationName"] != "Acme" || o["disabled"] != false || o["plan"] != "pro" || o["seats"] != float64(12) {
			t.Fatalf("acme = %v", o)
		}
		created, _ = o["createdAt"].(float64)
		if created < 1e12 {
			t.Fatalf("createdAt %v is not epoch ms", o["createdAt"])
		}
	})

	t.Run("add again is an upsert", func(t *testing.T) {
		expectItems(t, s.ok("/v2/organizations/add", map[string]any{"organizations": []any{
			map[string]any{"organizationId": "acme", "organizationName": "Acme Corp"},
		}}), map[string]bool{"acme": true})
		o := getOne(t, "acme")
		if o["organizationName"] != "Acme Corp" || o["plan"] != "pro" || o["createdAt"] != created {
			t.Fatalf("acme after upsert = %v (createdAt was %v)", o, created)
		}
	})

	t.Run("rendered keys are not metadata", func(t *testing.T) {
		s.ok("/v2/organizations/add", map[string]any{"organizations": []any{
			map[string]any{"organizationId": "acme", "id": "spoof", "createdAt": 5, "lastUpdated": 6},
		}})
		o := getOne(t, "acme")
		if o["createdAt"] != created || o["lastUpdated"] == float64(6) {
			t.Fatalf("acme = %v: sent createdAt/lastUpdated were stored", o)
		}
	})

	t.Run("update", func(t *testing.T) {
		r := s.ok("/v2/organizations/update", map[string]any{"organizations": []any{
			map[string]any{"organizationId": "acme", "disabled": true, "plan": "enterprise"},
			map[string]any{"organizationId": "ghost", "organizationName": "Ghost"},
		}})
		expectItems(t, r, map[string]bool{"acme": true, "ghost": false})
		o := getOne(t, "acme")
		if o["disabled"] != true || o["organizationName"] != "Acme Corp" || o["plan"] != "enterprise" || o["seats"] != float64(12) {
			t.Fatalf("acme after update = %v", o)
		}
		if got := objects(t, s.ok("/v2/organizations/get", map[string]any{"organizationIds": []string{"ghost"}})); len(got) != 0 {
			t.Fatalf("update created ghost: %v", got)
		}
	})

	t.Run("get pages", func(t *testing.T) {
		for _, id := range []string{"c3", "c1", "c2"} {
			s.ok("/v2/organizations/add", map[string]any{"organizations": []any{map[string]any{"organizationId": id}}})
		}
		all := []string{"acme", "beta", "c1", "c2", "c3"}
		seen, pages := collectPages(t, s, "/v2/organizations/get", map[string]any{"pageSize": 2}, "nextPageToken", "id")
		if pages != 3 || !slices.Equal(seen, all) {
			t.Fatalf("%d pages gave %v, want 3 pages of %v", pages, seen, all)
		}
		if got := field(t, s.ok("/v2/organizations/get", map[string]any{"organizationIds": []string{"c2", "nope", "acme"}}), "id"); !slices.Equal(got, []string{"acme", "c2"}) {
			t.Fatalf("get by ids = %v", got)
		}
		s.fails("/v2/organizations/get", map[string]any{"organizationIds": ids("o", 31)}, "INVALID_ARGUMENT", 400)
	})

	t.Run("delete removes everything inside", func(t *testing.T) {
		s.ok("/v2/users/add", map[string]any{"organizationId": "beta", "users": userRefs("alice")})
		s.ok("/v2/users/add", map[string]any{"organizationId": "beta", "documentId": "d1", "createDocument": true, "users": userRefs("bob")})
		s.ok("/v2/organizations/folders/add", map[string]any{"organizationId": "beta", "folders": []any{map[string]any{"folderId": "f1"}}})
		s.ok("/v2/users/add", map[string]any{"organizationId": "beta", "folderId": "f1", "users": userRefs("carol")})
		s.ok("/v2/organizations/usergroups/add", map[string]any{"organizationId": "beta", "organizationUserGroups": []any{map[string]any{"groupId": "g"}}})
		s.ok("/v1/organizations/usergroups/users/add", map[string]any{"organizationId": "beta", "organizationUserGroupId": "g", "userIds": []string{"alice"}})

		r := s.ok("/v2/organizations/delete", map[string]any{"organizationIds": []string{"beta", "ghost"}})
		expectItems(t, r, map[string]bool{"beta": true, "ghost": false})
		if got := objects(t, s.ok("/v2/organizations/get", map[string]any{"organizationIds": []string{"beta"}})); len(got) != 0 {
			t.Fatalf("beta still listed: %v", got)
		}
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": "beta"}))
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": "beta", "allDocuments": true}))
		if got := objects(t, s.ok("/v2/organizations/folders/get", map[string]any{"organizationId": "beta"})); len(got) != 0 {
			t.Fatalf("folders left: %v", got)
		}
		if got := objects(t, s.ok("/v2/organizations/documents/get", map[string]any{"organizationId": "beta"})); len(got) != 0 {
			t.Fatalf("documents left: %v", got)
		}
		// Re-creating the id starts empty.
		s.ok("/v2/organizations/add", map[string]any{"organizations": []any{map[string]any{"organizationId": "beta"}}})
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": "beta"}))
		s.ok("/v2/organizations/folders/add", map[string]any{"organizationId": "beta", "folders": []any{map[string]any{"folderId": "f1"}}})
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": "beta", "folderId": "f1"}))
		s.fails("/v1/organizations/usergroups/users/add", map[string]any{"organizationId": "beta", "organizationUserGroupId": "g", "userIds": []string{"alice"}}, "NOT_FOUND", 404)
		expectItems(t, s.ok("/v2/organizations/delete", map[string]any{"organizationIds": []string{"beta"}}), map[string]bool{"beta": true})
		expectItems(t, s.ok("/v2/organizations/delete", map[string]any{"organizationIds": []string{"beta"}}), map[string]bool{"beta": false})
	})
}

// collectPages follows a paged operation to its end and returns the key
// field of every entry and the number of pages. Every page but the last
// must be full and carry a string token under tokenKey; the last one a null
// or absent token.
func collectPages(t *testing.T, s *stack, path string, query map[string]any, tokenKey, key string) ([]string, int) {
	t.Helper()
	size, _ := query["pageSize"].(int)
	var seen []string
	q := query
	for pages := 1; pages <= 20; pages++ {
		r := s.ok(path, q)
		page := field(t, r, key)
		seen = append(seen, page...)
		next := r.Result[tokenKey]
		if next == nil {
			if len(page) == 0 || len(page) > size {
				t.Fatalf("last page %d holds %v", pages, page)
			}
			return seen, pages
		}
		tok, _ := next.(string)
		if tok == "" || len(page) != size {
			t.Fatalf("page %d: %v with %s %v", pages, page, tokenKey, next)
		}
		q = with(query, "pageToken", tok)
	}
	t.Fatalf("%s: paging does not end", path)
	return nil, 0
}
