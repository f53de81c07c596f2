package e2e

import (
	"fmt"
	"slices"
	"testing"
)

func TestUsersPagination(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	var all []string
	for i := 1; i <= 7; i++ {
		all = append(all, fmt.Sprintf("u%02d", i))
	}
	// Added in reverse so the order of the pages is not the order of insertion.
	for i := len(all) - 1; i >= 0; i-- {
		s.ok("/v2/users/add", map[string]any{"organizationId": "acme", "users": userRefs(all[i])})
	}
	s.ok("/v2/users/add", map[string]any{"organizationId": "other", "users": userRefs("x1", "x2", "x3")})
	query := map[string]any{"organizationId": "acme", "pageSize": 2}

	seen, pages := collectPages(t, s, "/v2/users/get", query, "nextPageToken", "userId")
	firstToken, _ := s.ok("/v2/users/get", query).Result["nextPageToken"].(string)
	if pages != 4 || !slices.Equal(seen, all) {
		t.Fatalf("%d pages gave %v, want 4 pages of %v (no duplicates, no gaps, sorted)", pages, seen, all)
	}

	t.Run("token reused with another organizationId", func(t *testing.T) {
		s.fails("/v2/users/get", map[string]any{"organizationId": "other", "pageSize": 2, "pageToken": firstToken}, "INVALID_ARGUMENT", 400)
	})
	t.Run("token reused with another filter", func(t *testing.T) {
		s.fails("/v2/users/get", map[string]any{"organizationId": "acme", "pageSize": 2, "pageToken": firstToken, "allDocuments": true}, "INVALID_ARGUMENT", 400)
	})
	t.Run("token used by another workspace", func(t *testing.T) {
		other := s.newWorkspace()
		s.okAs(other, "/v2/users/add", map[string]any{"organizationId": "acme", "users": userRefs("u01", "u02", "u03", "u04")})
		s.failsAs(other, "/v2/users/get", with(query, "pageToken", firstToken), "INVALID_ARGUMENT", 400)
	})
	t.Run("unknown token", func(t *testing.T) {
		s.fails("/v2/users/get", with(query, "pageToken", "not-a-token"), "INVALID_ARGUMENT", 400)
	})
	t.Run("token still valid in its own query", func(t *testing.T) {
		expectUsers(t, s.ok("/v2/users/get", with(query, "pageToken", firstToken)), "u03", "u04")
	})
	t.Run("allDocuments pages cross documents", func(t *testing.T) {
		for _, d := range []string{"d3", "d1", "d2"} {
			s.ok("/v2/users/add", map[string]any{"organizationId": "acme", "documentId": d, "createDocument": true, "users": userRefs("v2", "v1")})
		}
		want := []string{"d1/v1", "d1/v2", "d2/v1", "d2/v2", "d3/v1", "d3/v2"}
		var seen []string
		q := map[string]any{"organizationId": "acme", "allDocuments": true, "groupByDocumentId": true, "pageSize": 4}
		for page := 0; ; page++ {
			if page > 5 {
				t.Fatal("pagination does not end")
			}
			r := s.ok("/v2/users/get", q)
			var keys []string
			for doc, us := range r.DataMap() {
				for _, u := range us.([]any) {
					keys = append(keys, doc+"/"+u.(map[string]any)["userId"].(string))
				}
			}
			slices.Sort(keys)
			seen = append(seen, keys...)
			tok, _ := r.Result["nextPageToken"].(string)
			if tok == "" {
				break
			}
			if len(keys) != 4 {
				t.Fatalf("page %d holds %v", page, keys)
			}
			q = with(q, "pageToken", tok)
		}
		if !slices.Equal(seen, want) {
			t.Fatalf("grouped pages gave %v, want %v", seen, want)
		}
	})
	// The default page size (1000) is not exercised here: more than 1000
	// memberships take minutes to write on the embedded FerretDB (SQLite),
	// whose writes slow down with the collection size.
	t.Run("no pageSize: one page", func(t *testing.T) {
		r := s.ok("/v2/users/get", map[string]any{"organizationId": "acme"})
		if next := r.Result["nextPageToken"]; next != nil || !slices.Equal(usersOf(t, r), all) {
			t.Fatalf("default page: %s", r.Raw)
		}
	})
	t.Run("pageSize bounds", func(t *testing.T) {
		s.fails("/v2/users/get", map[string]any{"organizationId": "acme", "pageSize": 0}, "INVALID_ARGUMENT", 400)
		s.fails("/v2/users/get", map[string]any{"organizationId": "acme", "pageSize": 1001}, "INVALID_ARGUMENT", 400)
		r := s.ok("/v2/users/get", map[string]any{"organizationId": "acme", "pageSize": 7})
		if next := r.Result["nextPageToken"]; next != nil || !slices.Equal(usersOf(t, r), all) {
			t.Fatalf("pageSize 7 of 7: %s", r.Raw)
		}
	})
}
