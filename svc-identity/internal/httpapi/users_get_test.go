package httpapi_test

import (
	"fmt"
	"slices"
	"testing"
)

func userIDs(t *testing.T, r response) []string {
	t.Helper()
	items, ok := r.data().([]any)
	if !ok {
		t.Fatalf("data is not an array: %s", r.raw)
	}
	ids := make([]string, len(items))
	for i, it := range items {
		u := it.(map[string]any)
		if _, ok := u["email"]; !ok {
			t.Fatalf("item without email: %v", u)
		}
		ids[i], _ = u["userId"].(string)
	}
	return ids
}

func TestGetUsersPagesThroughThreePages(t *testing.T) {
	e := newEnv(t)
	all := []string{"u1", "u2", "u3", "u4", "u5", "u6"}
	e.addUsers("ws1", map[string]any{"organizationId": "o1"}, "u4", "u2", "u6", "u1", "u5", "u3")
	e.addUsers("ws1", map[string]any{"organizationId": "other"}, "x1")

	query := map[string]any{"organizationId": "o1", "pageSize": 2}
	var got []string
	var tokens []any
	for page := 1; ; page++ {
		if page > 4 {
			t.Fatal("more than 3 pages")
		}
		r := e.ok("ws1", "/v2/users/get", query)
		got = append(got, userIDs(t, r)...)
		tok, present := r.result()["nextPageToken"]
		if !present {
			t.Fatalf("page %d has no nextPageToken key", page)
		}
		tokens = append(tokens, tok)
		if tok == nil {
			break
		}
		query["pageToken"] = tok
	}
	if !slices.Equal(got, all) {
		t.Fatalf("users over all pages = %v, want %v (sorted, no gaps, no duplicates)", got, all)
	}
	if len(tokens) != 3 || tokens[0] == nil || tokens[1] == nil || tokens[2] != nil {
		t.Fatalf("tokens = %v, want two tokens then null", tokens)
	}

	// The token is bound to its query and its workspace.
	tok := tokens[0]
	e.fails("ws1", "/v2/users/get", map[string]any{"organizationId": "other", "pageToken": tok}, "INVALID_ARGUMENT")
	e.fails("ws2", "/v2/users/get", map[string]any{"organizationId": "o1", "pageToken": tok}, "INVALID_ARGUMENT")
	e.fails("ws1", "/v2/users/get", map[string]any{"organizationId": "o1", "pageToken": "made-up"}, "INVALID_ARGUMENT")
	// The page size may change between pages.
	r := e.ok("ws1", "/v2/users/get", map[string]any{"organizationId": "o1", "pageToken": tok, "pageSize": 10})
	if ids := userIDs(t, r); !slices.Equal(ids, all[2:]) {
		t.Fatalf("rest after the first page = %v", ids)
	}
}

func TestGetUsersFilters(t *testing.T) {
	e := newEnv(t)
	e.addUsers("ws1", map[string]any{"organizationId": "o1"}, "a", "b", "c", "d")
	e.addUsers("ws1", map[string]any{"organizationId": "o1", "documentId": "d2"}, "c", "a")
	e.addUsers("ws1", map[string]any{"organizationId": "o1", "documentId": "d1"}, "b")
	e.addUsers("ws1", map[string]any{"organizationId": "o1", "folderId": "f1"}, "d")
	e.ok("ws1", "/v2/organizations/usergroups/add", map[string]any{
		"organizationId": "o1", "organizationUserGroups": []any{map[string]any{"groupId": "g1"}, map[string]any{"groupId": "g2"}},
	})
	e.ok("ws1", "/v1/organizations/usergroups/users/add", map[string]any{"organizationId": "o1", "organizationUserGroupId": "g1", "userIds": []string{"a", "b"}})
	e.ok("ws1", "/v1/organizations/usergroups/users/add", map[string]any{"organizationId": "o1", "organizationUserGroupId": "g2", "userIds": []string{"c"}})

	for _, tc := range []struct {
		name  string
		query map[string]any
		want  []string
	}{
		{"organization", map[string]any{}, []string{"a", "b", "c", "d"}},
		{"document", map[string]any{"documentId": "d2"}, []string{"a", "c"}},
		{"folder", map[string]any{"folderId": "f1"}, []string{"d"}},
		{"user ids", map[string]any{"userIds": []string{"d", "b", "zz"}}, []string{"b", "d"}},
		{"groups", map[string]any{"organizationUserGroupIds": []string{"g1", "g2"}}, []string{"a", "b", "c"}},
		{"groups and user ids", map[string]any{"organizationUserGroupIds": []string{"g1"}, "userIds": []string{"b", "c"}}, []string{"b"}},
		{"groups on a document", map[string]any{"documentId": "d2", "organizationUserGroupIds": []string{"g1"}}, []string{"a"}},
		{"unknown group", map[string]any{"organizationUserGroupIds": []string{"nope"}}, []string{}},
		{"all documents", map[string]any{"allDocuments": true}, []string{"b", "a", "c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := map[string]any{"organizationId": "o1"}
			for k, v := range tc.query {
				q[k] = v
			}
			if got := userIDs(t, e.ok("ws1", "/v2/users/get", q)); !slices.Equal(got, tc.want) {
				t.Fatalf("users = %v, want %v", got, tc.want)
			}
		})
	}

	grouped := e.ok("ws1", "/v2/users/get", map[string]any{"organizationId": "o1", "allDocuments": true, "groupByDocumentId": true}).dataMap()
	if fmt.Sprint(names(grouped["d1"])) != "[b]" || fmt.Sprint(names(grouped["d2"])) != "[a c]" || len(grouped) != 2 {
		t.Fatalf("grouped = %v", grouped)
	}

	for name, q := range map[string]map[string]any{
		"grouping without allDocuments": {"groupByDocumentId": true},
		"document and folder":           {"documentId": "d1", "folderId": "f1"},
		"allDocuments with a document":  {"allDocuments": true, "documentId": "d1"},
		"page size 0":                   {"pageSize": 0},
		"page size 1001":                {"pageSize": 1001},
		"31 user ids":                   {"userIds": make([]string, 31)},
		"31 group ids":                  {"organizationUserGroupIds": make([]string, 31)},
	} {
		q["organizationId"] = "o1"
		t.Run(name, func(t *testing.T) { e.fails("ws1", "/v2/users/get", q, "INVALID_ARGUMENT") })
	}
}

func names(v any) []string {
	var out []string
	for _, it := range v.([]any) {
		out = append(out, it.(map[string]any)["userId"].(string))
	}
	return out
}

func TestGetUsersAllDocumentsPagesAcrossDocuments(t *testing.T) {
	e := newEnv(t)
	e.addUsers("ws1", map[string]any{"organizationId": "o1", "documentId": "d1"}, "u1", "u2")
	e.addUsers("ws1", map[string]any{"organizationId": "o1", "documentId": "d2"}, "u1", "u3")
	q := map[string]any{"organizationId": "o1", "allDocuments": true, "groupByDocumentId": true, "pageSize": 3}
	first := e.ok("ws1", "/v2/users/get", q)
	if d1, d2 := names(first.dataMap()["d1"]), names(first.dataMap()["d2"]); fmt.Sprint(d1, d2) != "[u1 u2] [u1]" {
		t.Fatalf("first page = %v %v", d1, d2)
	}
	q["pageToken"] = first.result()["nextPageToken"]
	second := e.ok("ws1", "/v2/users/get", q)
	if d2 := names(second.dataMap()["d2"]); fmt.Sprint(d2) != "[u3]" || second.result()["nextPageToken"] != nil {
		t.Fatalf("second page = %v, token %v", second.dataMap(), second.result()["nextPageToken"])
	}
}
