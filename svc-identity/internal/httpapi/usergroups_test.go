package httpapi_test

import (
	"maps"
	"testing"
)

func TestUserGroups(t *testing.T) {
	e := newEnv(t)
	before := e.records()
	e.fails("ws1", "/v2/organizations/usergroups/add", map[string]any{
		"organizationId": "o1", "organizationUserGroups": []any{map[string]any{"groupId": "g1"}},
	}, "NOT_FOUND")
	if after := e.records(); !maps.Equal(before, after) {
		t.Fatalf("refused usergroups/add wrote: %v → %v", before, after)
	}
	r := e.ok("ws1", "/v2/organizations/usergroups/add", map[string]any{
		"organizationId": "o1", "createOrganization": true,
		"organizationUserGroups": []any{map[string]any{"groupId": "g1", "groupName": "Reviewers"}},
	})
	if g1 := r.item("g1"); g1["success"] != true || len(g1["id"].(string)) != 32 {
		t.Fatalf("g1 = %v", g1)
	}

	e.addUsers("ws1", map[string]any{"organizationId": "o1"}, "u1", "u2")
	e.addUsers("ws1", map[string]any{"organizationId": "o1", "documentId": "d1"}, "docOnly")
	r = e.ok("ws1", "/v1/organizations/usergroups/users/add", map[string]any{
		"organizationId": "o1", "organizationUserGroupId": "g1", "userIds": []string{"u1", "u2", "docOnly", "stranger"},
	})
	for _, id := range []string{"u1", "u2", "docOnly"} {
		if it := r.item(id); it["success"] != true || it["organizationUserGroupId"] != "g1" || it["message"] == "" {
			t.Errorf("%s = %v", id, it)
		}
	}
	if it := r.item("stranger"); it["success"] != false || it["message"] != "User does not exist in the organization." {
		t.Errorf("stranger = %v", it)
	}
	e.fails("ws1", "/v1/organizations/usergroups/users/add", map[string]any{
		"organizationId": "o1", "organizationUserGroupId": "nope", "userIds": []string{"u1"},
	}, "NOT_FOUND")

	r = e.ok("ws1", "/v1/organizations/usergroups/users/delete", map[string]any{
		"organizationId": "o1", "organizationUserGroupId": "g1", "userIds": []string{"u1", "stranger"},
	})
	if r.item("u1")["success"] != true || r.item("stranger")["success"] != false {
		t.Fatalf("delete = %v", r.dataMap())
	}
	r = e.ok("ws1", "/v1/organizations/usergroups/users/delete", map[string]any{
		"organizationId": "o1", "organizationUserGroupId": "g1", "deleteAll": true,
	})
	if len(r.dataMap()) != 2 || r.item("u2")["success"] != true || r.item("docOnly")["success"] != true {
		t.Fatalf("deleteAll = %v", r.dataMap())
	}
	if n := e.records()["groupmembers"]; n != 0 {
		t.Fatalf("%d group members left", n)
	}
	e.fails("ws1", "/v1/organizations/usergroups/users/delete", map[string]any{"organizationId": "o1", "organizationUserGroupId": "g1"}, "INVALID_ARGUMENT")
	e.fails("ws1", "/v1/organizations/usergroups/users/delete", map[string]any{
		"organizationId": "o1", "organizationUserGroupId": "nope", "deleteAll": true,
	}, "NOT_FOUND")
}
