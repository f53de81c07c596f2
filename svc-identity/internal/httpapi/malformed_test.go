package httpapi_test

import (
	"maps"
	"strings"
	"testing"
)

// TestMalformedBodiesAreRefusedBeforeStorage sends broken bodies to write
// operations: each is INVALID_ARGUMENT and no collection changes.
func TestMalformedBodiesAreRefusedBeforeStorage(t *testing.T) {
	e := newEnv(t)
	e.addUsers("ws1", map[string]any{"organizationId": "o1"}, "u1")
	user := `{"userId":"u2"}`
	for _, tc := range []struct {
		name, path, body string
		mention          string // the message names the field
	}{
		{"empty body", "/v2/users/add", ``, "data"},
		{"not JSON", "/v2/users/add", `{"data":`, "JSON"},
		{"array body", "/v2/users/add", `[]`, "data"},
		{"data missing", "/v2/users/add", `{"organizationId":"o1"}`, "data"},
		{"data not an object", "/v2/users/add", `{"data":[1]}`, "data"},
		{"trailing data", "/v2/users/add", `{"data":{}} {}`, "trailing"},
		{"missing organizationId", "/v2/users/add", `{"data":{"users":[` + user + `]}}`, "organizationId"},
		{"blank organizationId", "/v2/users/add", `{"data":{"organizationId":"  ","users":[` + user + `]}}`, "organizationId"},
		{"organizationId a number", "/v2/users/add", `{"data":{"organizationId":7,"users":[` + user + `]}}`, "organizationId"},
		{"users an object", "/v2/users/add", `{"data":{"organizationId":"o1","users":` + user + `}}`, "users"},
		{"users empty", "/v2/users/add", `{"data":{"organizationId":"o1","users":[]}}`, "users"},
		{"user without id", "/v2/users/add", `{"data":{"organizationId":"o1","users":[{"name":"x"}]}}`, "userId"},
		{"user name a number", "/v2/users/add", `{"data":{"organizationId":"o1","users":[{"userId":"u2","name":5}]}}`, "name"},
		{"user a string", "/v2/users/add", `{"data":{"organizationId":"o1","users":["u2"]}}`, "users"},
		{"unknown role", "/v2/users/add", `{"data":{"organizationId":"o1","users":[{"userId":"u2","accessRole":"owner"}]}}`, "accessRole"},
		{"createDocument a string", "/v2/users/add", `{"data":{"organizationId":"o1","documentId":"d","createDocument":"yes","users":[` + user + `]}}`, "createDocument"},
		{"$ key in a user", "/v2/users/add", `{"data":{"organizationId":"o1","users":[{"userId":"u2","$set":{"isAdmin":true}}]}}`, "$set"},
		{"dotted key in a user", "/v2/users/add", `{"data":{"organizationId":"o1","users":[{"userId":"u2","extra.isAdmin":true}]}}`, "extra.isAdmin"},
		{"nested $ key", "/v2/users/add", `{"data":{"organizationId":"o1","users":[{"userId":"u2","prefs":{"$where":"1"}}]}}`, "$where"},
		{"$ key in data", "/v2/users/add", `{"data":{"organizationId":"o1","$where":"1","users":[` + user + `]}}`, "$where"},
		{"v2 update unknown role", "/v2/users/update", `{"data":{"organizationId":"o1","users":[{"userId":"u1","accessRole":"root"}]}}`, "accessRole"},
		{"delete userIds a string", "/v1/users/delete", `{"data":{"organizationId":"o1","userIds":"u1"}}`, "userIds"},
		{"delete userIds of numbers", "/v1/users/delete", `{"data":{"organizationId":"o1","userIds":[1]}}`, "userIds"},
		{"org metadata dotted key", "/v2/organizations/add", `{"data":{"organizations":[{"organizationId":"o2","a.b":1}]}}`, "a.b"},
		{"org metadata $ key", "/v2/organizations/add", `{"data":{"organizations":[{"organizationId":"o2","$inc":{"x":1}}]}}`, "$inc"},
		{"org disabled a string", "/v2/organizations/add", `{"data":{"organizations":[{"organizationId":"o2","disabled":"no"}]}}`, "disabled"},
		{"orgs delete missing ids", "/v2/organizations/delete", `{"data":{}}`, "organizationIds"},
		{"document unknown access type", "/v2/organizations/documents/add", `{"data":{"organizationId":"o1","documents":[{"documentId":"d2","accessType":"private"}]}}`, "accessType"},
		{"document dotted metadata", "/v2/organizations/documents/add", `{"data":{"organizationId":"o1","documents":[{"documentId":"d2","x.y":1}]}}`, "x.y"},
		{"documents delete empty", "/v2/organizations/documents/delete", `{"data":{"organizationId":"o1","documentIds":[]}}`, "documentIds"},
		{"folder unknown access type", "/v2/organizations/folders/add", `{"data":{"organizationId":"o1","folders":[{"folderId":"f","accessType":"default"}]}}`, "accessType"},
		{"folder update name a number", "/v1/organizations/folders/update", `{"data":{"organizationId":"o1","folders":[{"folderId":"f","folderName":3}]}}`, "folderName"},
		{"group without id", "/v2/organizations/usergroups/add", `{"data":{"organizationId":"o1","organizationUserGroups":[{"groupName":"x"}]}}`, "groupId"},
		{"group members no group", "/v1/organizations/usergroups/users/add", `{"data":{"organizationId":"o1","userIds":["u1"]}}`, "organizationUserGroupId"},
		{"permissions resource unknown type", "/v2/auth/permissions/add", `{"data":{"user":{"userId":"u1"},"permissions":{"resources":[{"type":"workspace","id":"w"}]}}}`, "type"},
		{"permissions user a string", "/v2/auth/permissions/add", `{"data":{"user":"u1","permissions":{"resources":[{"type":"organization","id":"o9"}]}}}`, "user"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.records()
			r := e.fails("ws1", tc.path, tc.body, "INVALID_ARGUMENT")
			if msg := r.body["error"].(map[string]any)["message"].(string); !strings.Contains(msg, tc.mention) {
				t.Errorf("message %q does not mention %q", msg, tc.mention)
			}
			if after := e.records(); !maps.Equal(before, after) {
				t.Fatalf("refused request wrote: %v → %v", before, after)
			}
		})
	}
}
