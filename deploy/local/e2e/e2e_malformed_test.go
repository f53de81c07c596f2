package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// identityPaths are every public svc-identity operation.
var identityPaths = []string{
	"/v2/auth/generate_signature", "/v2/auth/signature/verify", "/v2/auth/generate_token",
	"/v2/auth/permissions/add", "/v2/auth/permissions/get", "/v2/auth/permissions/remove",
	"/v2/users/add", "/v2/users/update", "/v1/users/update", "/v2/users/get", "/v1/users/delete",
	"/v2/organizations/usergroups/add", "/v1/organizations/usergroups/users/add", "/v1/organizations/usergroups/users/delete",
	"/v2/organizations/add", "/v2/organizations/get", "/v2/organizations/update", "/v2/organizations/delete",
	"/v2/organizations/folders/add", "/v2/organizations/folders/get", "/v2/organizations/folders/delete", "/v1/organizations/folders/update",
	"/v2/organizations/documents/add", "/v2/organizations/documents/get", "/v2/organizations/documents/update", "/v2/organizations/documents/delete",
}

type malformedCase struct {
	name, path, body string
	mention          string // a word the error message must contain ("" = any message)
}

// envelopeCases break the envelope itself, for every operation.
func envelopeCases() []malformedCase {
	var out []malformedCase
	for _, p := range identityPaths {
		bodies := []struct{ name, body, mention string }{
			{"data an array", `{"data":[]}`, "data"},
			{"data a string", `{"data":"x"}`, "data"},
			{"body an array", `[{"data":{}}]`, "data"},
			{"not JSON", `{"data":{`, "JSON"},
			{"trailing data", `{"data":{}} {"data":{}}`, "trailing"},
			{"$ key in data", `{"data":{"$where":"1"}}`, "$where"},
		}
		if p != "/v2/organizations/get" { // the one operation that needs no body
			bodies = append(bodies,
				struct{ name, body, mention string }{"empty body", ``, "data"},
				struct{ name, body, mention string }{"data missing", `{}`, "data"},
				struct{ name, body, mention string }{"data null", `{"data":null}`, "data"},
				struct{ name, body, mention string }{"unwrapped", `{"organizationId":"acme","userId":"mallory"}`, "data"},
			)
		}
		for _, b := range bodies {
			out = append(out, malformedCase{p + " " + b.name, p, b.body, b.mention})
		}
	}
	return out
}

// wrap wraps a JSON object text as a request body.
func wrap(s string) string { return `{"data":` + s + `}` }

// operationCases are bodies that would write something visible if they
// were accepted (a new user mallory, organization o-new, folder f-new,
// document d-new, or a change to the fixture).
func operationCases() []malformedCase {
	past := fmt.Sprint(time.Now().Add(-time.Hour).UnixMilli())
	huge := strings.Repeat("x", 5<<20)
	mallory := `{"userId":"mallory","name":"M"}`
	res := func(fields string) string {
		return wrap(`{"user":{"userId":"mallory"},"permissions":{"resources":[` + fields + `]}}`)
	}
	token := func(userProps, resources string) string {
		return wrap(`{"userId":"mallory","userProperties":` + userProps + `,"permissions":{"resources":[` + resources + `]}}`)
	}
	okProps := `{"name":"M","email":"m@example.com"}`
	sig := func(perm string) string { return wrap(`{"permissions":[` + perm + `]}`) }
	return []malformedCase{
		// users/add
		{"users/add missing organizationId", "/v2/users/add", wrap(`{"users":[` + mallory + `]}`), "organizationId"},
		{"users/add blank organizationId", "/v2/users/add", wrap(`{"organizationId":"  ","users":[` + mallory + `]}`), "organizationId"},
		{"users/add organizationId a number", "/v2/users/add", wrap(`{"organizationId":7,"users":[` + mallory + `]}`), "organizationId"},
		{"users/add users missing", "/v2/users/add", wrap(`{"organizationId":"o-new"}`), "users"},
		{"users/add users empty", "/v2/users/add", wrap(`{"organizationId":"o-new","users":[]}`), "users"},
		{"users/add users an object", "/v2/users/add", wrap(`{"organizationId":"acme","users":` + mallory + `}`), "users"},
		{"users/add user a string", "/v2/users/add", wrap(`{"organizationId":"acme","users":["mallory"]}`), "users"},
		{"users/add user without userId", "/v2/users/add", wrap(`{"organizationId":"acme","users":[` + mallory + `,{"name":"x"}]}`), "userId"},
		{"users/add blank userId", "/v2/users/add", wrap(`{"organizationId":"acme","users":[` + mallory + `,{"userId":" "}]}`), "userId"},
		{"users/add name a number", "/v2/users/add", wrap(`{"organizationId":"acme","users":[{"userId":"mallory","name":5}]}`), "name"},
		{"users/add isAdmin a string", "/v2/users/add", wrap(`{"organizationId":"acme","users":[{"userId":"mallory","isAdmin":"yes"}]}`), "isAdmin"},
		{"users/add unknown accessRole", "/v2/users/add", wrap(`{"organizationId":"acme","users":[{"userId":"mallory","accessRole":"owner"}]}`), "accessRole"},
		{"users/add createDocument a string", "/v2/users/add", wrap(`{"organizationId":"acme","documentId":"d-new","createDocument":"yes","users":[` + mallory + `]}`), "createDocument"},
		{"users/add documentId and folderId", "/v2/users/add", wrap(`{"organizationId":"acme","documentId":"d1","folderId":"f1","users":[` + mallory + `]}`), "documentId"},
		{"users/add $ key in a user", "/v2/users/add", wrap(`{"organizationId":"acme","users":[{"userId":"mallory","$set":{"isAdmin":true}}]}`), "$set"},
		{"users/add nested $ key", "/v2/users/add", wrap(`{"organizationId":"acme","users":[{"userId":"mallory","prefs":{"a":[{"$gt":1}]}}]}`), "$gt"},
		{"users/add dotted key", "/v2/users/add", wrap(`{"organizationId":"acme","users":[{"userId":"mallory","profile.isAdmin":true}]}`), "profile.isAdmin"},
		{"users/add NUL in a key", "/v2/users/add", wrap(`{"organizationId":"o-new","users":[{"userId":"mallory","x\u0000y":1}]}`), "NUL"},
		{"users/add NUL in a nested key", "/v2/users/add", wrap(`{"organizationId":"o-new","users":[{"userId":"mallory","prefs":{"a\u0000":1}}]}`), "NUL"},
		{"users/add number out of range", "/v2/users/add", wrap(`{"organizationId":"o-new","users":[{"userId":"mallory","big":1e400}]}`), "range"},
		{"users/add oversized", "/v2/users/add", wrap(`{"organizationId":"acme","users":[{"userId":"mallory","name":"` + huge + `"}]}`), "bytes"},
		// users/update v2 and v1 (alice is a member of acme)
		{"users/update unknown accessRole", "/v2/users/update", wrap(`{"organizationId":"acme","users":[{"userId":"alice","name":"X","accessRole":"root"}]}`), "accessRole"},
		{"users/update name a number", "/v2/users/update", wrap(`{"organizationId":"acme","users":[{"userId":"alice","name":1}]}`), "name"},
		{"users/update users missing", "/v2/users/update", wrap(`{"organizationId":"acme"}`), "users"},
		{"users/update documentId and folderId", "/v2/users/update", wrap(`{"organizationId":"acme","documentId":"d1","folderId":"f1","users":[{"userId":"carol","name":"X"}]}`), "documentId"},
		{"users/update $ key", "/v2/users/update", wrap(`{"organizationId":"acme","users":[{"userId":"alice","name":"X","$unset":{"email":1}}]}`), "$unset"},
		{"users/update dotted key", "/v2/users/update", wrap(`{"organizationId":"acme","users":[{"userId":"alice","name":"X","a.b":1}]}`), "a.b"},
		{"v1 users/update email a number", "/v1/users/update", wrap(`{"organizationId":"acme","users":[{"userId":"alice","name":"X","email":2}]}`), "email"},
		{"v1 users/update users empty", "/v1/users/update", wrap(`{"organizationId":"acme","users":[]}`), "users"},
		{"v1 users/update $ key", "/v1/users/update", wrap(`{"organizationId":"acme","users":[{"userId":"alice","name":"X","$set":1}]}`), "$set"},
		{"v1 users/update organizationId missing", "/v1/users/update", wrap(`{"users":[{"userId":"alice","name":"X"}]}`), "organizationId"},
		// users/get
		{"users/get 31 userIds", "/v2/users/get", wrap(`{"organizationId":"acme","userIds":` + jsonIDs("u", 31) + `}`), "userIds"},
		{"users/get 31 group ids", "/v2/users/get", wrap(`{"organizationId":"acme","organizationUserGroupIds":` + jsonIDs("g", 31) + `}`), "organizationUserGroupIds"},
		{"users/get pageSize 0", "/v2/users/get", wrap(`{"organizationId":"acme","pageSize":0}`), "pageSize"},
		{"users/get pageSize 1001", "/v2/users/get", wrap(`{"organizationId":"acme","pageSize":1001}`), "pageSize"},
		{"users/get pageSize a string", "/v2/users/get", wrap(`{"organizationId":"acme","pageSize":"2"}`), "pageSize"},
		{"users/get pageSize a fraction", "/v2/users/get", wrap(`{"organizationId":"acme","pageSize":2.5}`), "pageSize"},
		{"users/get userIds a string", "/v2/users/get", wrap(`{"organizationId":"acme","userIds":"alice"}`), "userIds"},
		{"users/get allDocuments a string", "/v2/users/get", wrap(`{"organizationId":"acme","allDocuments":"true"}`), "allDocuments"},
		{"users/get organizationId missing", "/v2/users/get", wrap(`{"documentId":"d1"}`), "organizationId"},
		{"users/get documentId and folderId", "/v2/users/get", wrap(`{"organizationId":"acme","documentId":"d1","folderId":"f1"}`), "documentId"},
		// users/delete
		{"users/delete userIds a string", "/v1/users/delete", wrap(`{"organizationId":"acme","userIds":"alice"}`), "userIds"},
		{"users/delete userIds of numbers", "/v1/users/delete", wrap(`{"organizationId":"acme","userIds":[1]}`), "userIds"},
		{"users/delete userIds missing", "/v1/users/delete", wrap(`{"organizationId":"acme"}`), "userIds"},
		{"users/delete userIds empty", "/v1/users/delete", wrap(`{"organizationId":"acme","userIds":[]}`), "userIds"},
		{"users/delete documentId and folderId", "/v1/users/delete", wrap(`{"organizationId":"acme","documentId":"d1","folderId":"f1","userIds":["carol"]}`), "documentId"},
		{"users/delete $ key", "/v1/users/delete", wrap(`{"organizationId":"acme","userIds":["alice"],"$ne":null}`), "$ne"},
		{"users/delete unknown field", "/v1/users/delete", wrap(`{"organizationId":"acme","userIds":["alice"],"filter":{"$ne":null}}`), "unknown field filter"},
		// user groups
		{"usergroups/add groups missing", "/v2/organizations/usergroups/add", wrap(`{"organizationId":"o-new","createOrganization":true}`), "organizationUserGroups"},
		{"usergroups/add group without id", "/v2/organizations/usergroups/add", wrap(`{"organizationId":"o-new","createOrganization":true,"organizationUserGroups":[{"groupId":"g2"},{"groupName":"x"}]}`), "groupId"},
		{"usergroups/add groupName a number", "/v2/organizations/usergroups/add", wrap(`{"organizationId":"o-new","createOrganization":true,"organizationUserGroups":[{"groupId":"g2","groupName":3}]}`), "groupName"},
		{"usergroups/add groups an object", "/v2/organizations/usergroups/add", wrap(`{"organizationId":"o-new","createOrganization":true,"organizationUserGroups":{"groupId":"g2"}}`), "organizationUserGroups"},
		{"usergroups/add createOrganization a string", "/v2/organizations/usergroups/add", wrap(`{"organizationId":"o-new","createOrganization":"true","organizationUserGroups":[{"groupId":"g2"}]}`), "createOrganization"},
		{"group users/add group id missing", "/v1/organizations/usergroups/users/add", wrap(`{"organizationId":"acme","userIds":["carol"]}`), "organizationUserGroupId"},
		{"group users/add userIds a string", "/v1/organizations/usergroups/users/add", wrap(`{"organizationId":"acme","organizationUserGroupId":"g1","userIds":"carol"}`), "userIds"},
		{"group users/add userIds missing", "/v1/organizations/usergroups/users/add", wrap(`{"organizationId":"acme","organizationUserGroupId":"g1"}`), "userIds"},
		{"group users/add $ key", "/v1/organizations/usergroups/users/add", wrap(`{"organizationId":"acme","organizationUserGroupId":"g1","userIds":["carol"],"$push":1}`), "$push"},
		{"group users/delete neither userIds nor deleteAll", "/v1/organizations/usergroups/users/delete", wrap(`{"organizationId":"acme","organizationUserGroupId":"g1"}`), "userIds"},
		{"group users/delete deleteAll a string", "/v1/organizations/usergroups/users/delete", wrap(`{"organizationId":"acme","organizationUserGroupId":"g1","deleteAll":"yes"}`), "deleteAll"},
		{"group users/delete userIds of booleans", "/v1/organizations/usergroups/users/delete", wrap(`{"organizationId":"acme","organizationUserGroupId":"g1","userIds":[true]}`), "userIds"},
		// organizations
		{"organizations/add organizations missing", "/v2/organizations/add", wrap(`{}`), "organizations"},
		{"organizations/add organizations empty", "/v2/organizations/add", wrap(`{"organizations":[]}`), "organizations"},
		{"organizations/add organizations an object", "/v2/organizations/add", wrap(`{"organizations":{"organizationId":"o-new"}}`), "organizations"},
		{"organizations/add item without id", "/v2/organizations/add", wrap(`{"organizations":[{"organizationId":"o-new"},{"organizationName":"x"}]}`), "organizationId"},
		{"organizations/add name a number", "/v2/organizations/add", wrap(`{"organizations":[{"organizationId":"o-new","organizationName":5}]}`), "organizationName"},
		{"organizations/add disabled a string", "/v2/organizations/add", wrap(`{"organizations":[{"organizationId":"o-new","disabled":"no"}]}`), "disabled"},
		{"organizations/add $ metadata", "/v2/organizations/add", wrap(`{"organizations":[{"organizationId":"o-new","$inc":{"x":1}}]}`), "$inc"},
		{"organizations/add dotted metadata", "/v2/organizations/add", wrap(`{"organizations":[{"organizationId":"o-new","a.b":1}]}`), "a.b"},
		{"organizations/add NUL in a metadata key", "/v2/organizations/add", wrap(`{"organizations":[{"organizationId":"o-new","a\u0000b":1}]}`), "NUL"},
		{"organizations/add metadata number out of range", "/v2/organizations/add", wrap(`{"organizations":[{"organizationId":"o-new","n":-1e999}]}`), "range"},
		{"organizations/add oversized", "/v2/organizations/add", wrap(`{"organizations":[{"organizationId":"o-new","blob":"` + huge + `"}]}`), "bytes"},
		{"organizations/get 31 ids", "/v2/organizations/get", wrap(`{"organizationIds":` + jsonIDs("o", 31) + `}`), "organizationIds"},
		{"organizations/get ids a string", "/v2/organizations/get", wrap(`{"organizationIds":"acme"}`), "organizationIds"},
		{"organizations/get pageSize 0", "/v2/organizations/get", wrap(`{"pageSize":0}`), "pageSize"},
		{"organizations/get pageSize 1001", "/v2/organizations/get", wrap(`{"pageSize":1001}`), "pageSize"},
		{"organizations/update disabled a string", "/v2/organizations/update", wrap(`{"organizations":[{"organizationId":"acme","disabled":"yes"}]}`), "disabled"},
		{"organizations/update name a number", "/v2/organizations/update", wrap(`{"organizations":[{"organizationId":"acme","organizationName":false}]}`), "organizationName"},
		{"organizations/update $ metadata", "/v2/organizations/update", wrap(`{"organizations":[{"organizationId":"acme","organizationName":"X","meta":{"$set":1}}]}`), "$set"},
		{"organizations/delete ids missing", "/v2/organizations/delete", wrap(`{}`), "organizationIds"},
		{"organizations/delete ids empty", "/v2/organizations/delete", wrap(`{"organizationIds":[]}`), "organizationIds"},
		{"organizations/delete ids a string", "/v2/organizations/delete", wrap(`{"organizationIds":"acme"}`), "organizationIds"},
		{"organizations/delete ids of numbers", "/v2/organizations/delete", wrap(`{"organizationIds":[1]}`), "organizationIds"},
		{"organizations/delete $ key", "/v2/organizations/delete", wrap(`{"organizationIds":["acme"],"$where":"1"}`), "$where"},
		// folders
		{"folders/add unknown accessType", "/v2/organizations/folders/add", wrap(`{"organizationId":"acme","folders":[{"folderId":"f-new","accessType":"default"}]}`), "accessType"},
		{"folders/add accessType private", "/v2/organizations/folders/add", wrap(`{"organizationId":"acme","folders":[{"folderId":"f-new","accessType":"private"}]}`), "accessType"},
		{"folders/add folders missing", "/v2/organizations/folders/add", wrap(`{"organizationId":"o-new","createOrganization":true}`), "folders"},
		{"folders/add folder without id", "/v2/organizations/folders/add", wrap(`{"organizationId":"acme","folders":[{"folderId":"f-new"},{"folderName":"x"}]}`), "folderId"},
		{"folders/add parentFolderId a number", "/v2/organizations/folders/add", wrap(`{"organizationId":"acme","folders":[{"folderId":"f-new","parentFolderId":1}]}`), "parentFolderId"},
		{"folders/add createOrganization a string", "/v2/organizations/folders/add", wrap(`{"organizationId":"o-new","createOrganization":"yes","folders":[{"folderId":"f-new"}]}`), "createOrganization"},
		{"folders/add $ key", "/v2/organizations/folders/add", wrap(`{"organizationId":"acme","folders":[{"folderId":"f-new","$rename":{"a":"b"}}]}`), "$rename"},
		// "root" is the parentFolderId of top-level folders, never a folder id.
		{"folders/add folder id root", "/v2/organizations/folders/add", wrap(`{"organizationId":"acme","folders":[{"folderId":"root","accessType":"restricted"}]}`), "root"},
		{"users/add createFolder root", "/v2/users/add", wrap(`{"organizationId":"acme","folderId":"root","createFolder":true,"users":[` + mallory + `]}`), "root"},
		{"documents/add createFolder root", "/v2/organizations/documents/add", wrap(`{"organizationId":"acme","folderId":"root","createFolder":true,"documents":[{"documentId":"d-new"}]}`), "root"},
		{"permissions/add folder root", "/v2/auth/permissions/add", res(`{"type":"organization","id":"o-new"},{"type":"folder","id":"root","organizationId":"acme"}`), "root"},
		{"folders/get maxDepth negative", "/v2/organizations/folders/get", wrap(`{"organizationId":"acme","maxDepth":-1}`), "maxDepth"},
		{"folders/get maxDepth a string", "/v2/organizations/folders/get", wrap(`{"organizationId":"acme","maxDepth":"2"}`), "maxDepth"},
		{"folders/get organizationId missing", "/v2/organizations/folders/get", wrap(`{"folderId":"f1"}`), "organizationId"},
		{"folders/delete folderId missing", "/v2/organizations/folders/delete", wrap(`{"organizationId":"acme"}`), "folderId"},
		{"folders/delete folderId a number", "/v2/organizations/folders/delete", wrap(`{"organizationId":"acme","folderId":1}`), "folderId"},
		{"folders/delete organizationId missing", "/v2/organizations/folders/delete", wrap(`{"folderId":"f1"}`), "organizationId"},
		{"folders/delete $ key", "/v2/organizations/folders/delete", wrap(`{"organizationId":"acme","folderId":"f1","$or":[]}`), "$or"},
		{"folders/update folderName a number", "/v1/organizations/folders/update", wrap(`{"organizationId":"acme","folders":[{"folderId":"f1","folderName":3}]}`), "folderName"},
		{"folders/update parentFolderId a number", "/v1/organizations/folders/update", wrap(`{"organizationId":"acme","folders":[{"folderId":"f1","folderName":"X","parentFolderId":2}]}`), "parentFolderId"},
		{"folders/update folders empty", "/v1/organizations/folders/update", wrap(`{"organizationId":"acme","folders":[]}`), "folders"},
		{"folders/update folder without id", "/v1/organizations/folders/update", wrap(`{"organizationId":"acme","folders":[{"folderId":"f1","folderName":"X"},{"folderName":"Y"}]}`), "folderId"},
		{"folders/update $ key", "/v1/organizations/folders/update", wrap(`{"organizationId":"acme","folders":[{"folderId":"f1","folderName":"X","$set":{}}]}`), "$set"},
		// documents
		{"documents/add unknown accessType", "/v2/organizations/documents/add", wrap(`{"organizationId":"acme","documents":[{"documentId":"d-new","accessType":"private"}]}`), "accessType"},
		{"documents/add documentName a number", "/v2/organizations/documents/add", wrap(`{"organizationId":"acme","documents":[{"documentId":"d-new","documentName":9}]}`), "documentName"},
		{"documents/add disabled a string", "/v2/organizations/documents/add", wrap(`{"organizationId":"acme","documents":[{"documentId":"d-new","disabled":"no"}]}`), "disabled"},
		{"documents/add dotted metadata", "/v2/organizations/documents/add", wrap(`{"organizationId":"acme","documents":[{"documentId":"d-new","x.y":1}]}`), "x.y"},
		{"documents/add $ metadata", "/v2/organizations/documents/add", wrap(`{"organizationId":"acme","documents":[{"documentId":"d-new","meta":{"$set":{"a":1}}}]}`), "$set"},
		{"documents/add documents missing", "/v2/organizations/documents/add", wrap(`{"organizationId":"o-new","createOrganization":true}`), "documents"},
		{"documents/add document without id", "/v2/organizations/documents/add", wrap(`{"organizationId":"acme","documents":[{"documentId":"d-new"},{"documentName":"x"}]}`), "documentId"},
		{"documents/add folderId a number", "/v2/organizations/documents/add", wrap(`{"organizationId":"acme","folderId":3,"documents":[{"documentId":"d-new"}]}`), "folderId"},
		{"documents/add createFolder a string", "/v2/organizations/documents/add", wrap(`{"organizationId":"acme","folderId":"f-new","createFolder":"yes","documents":[{"documentId":"d-new"}]}`), "createFolder"},
		{"documents/add metadata number out of range", "/v2/organizations/documents/add", wrap(`{"organizationId":"acme","documents":[{"documentId":"d-new","n":[1e309]}]}`), "range"},
		{"documents/add NUL in a metadata key", "/v2/organizations/documents/add", wrap(`{"organizationId":"acme","documents":[{"documentId":"d-new","m":{"\u0000":1}}]}`), "NUL"},
		{"documents/add oversized", "/v2/organizations/documents/add", wrap(`{"organizationId":"acme","documents":[{"documentId":"d-new","documentName":"` + huge + `"}]}`), "bytes"},
		{"documents/get 31 ids", "/v2/organizations/documents/get", wrap(`{"organizationId":"acme","documentIds":` + jsonIDs("d", 31) + `}`), "documentIds"},
		{"documents/get ids a string", "/v2/organizations/documents/get", wrap(`{"organizationId":"acme","documentIds":"d1"}`), "documentIds"},
		{"documents/get pageSize 0", "/v2/organizations/documents/get", wrap(`{"organizationId":"acme","pageSize":0}`), "pageSize"},
		{"documents/get pageSize 1001", "/v2/organizations/documents/get", wrap(`{"organizationId":"acme","pageSize":1001}`), "pageSize"},
		{"documents/update unknown accessType", "/v2/organizations/documents/update", wrap(`{"organizationId":"acme","documents":[{"documentId":"d1","documentName":"X","accessType":"secret"}]}`), "accessType"},
		{"documents/update documentName a number", "/v2/organizations/documents/update", wrap(`{"organizationId":"acme","documents":[{"documentId":"d1","documentName":1}]}`), "documentName"},
		{"documents/update $ metadata", "/v2/organizations/documents/update", wrap(`{"organizationId":"acme","documents":[{"documentId":"d1","documentName":"X","$currentDate":{}}]}`), "$currentDate"},
		{"documents/update documents missing", "/v2/organizations/documents/update", wrap(`{"organizationId":"acme"}`), "documents"},
		{"documents/delete ids empty", "/v2/organizations/documents/delete", wrap(`{"organizationId":"acme","documentIds":[]}`), "documentIds"},
		{"documents/delete ids missing", "/v2/organizations/documents/delete", wrap(`{"organizationId":"acme"}`), "documentIds"},
		{"documents/delete ids a string", "/v2/organizations/documents/delete", wrap(`{"organizationId":"acme","documentIds":"d1"}`), "documentIds"},
		{"documents/delete organizationId missing", "/v2/organizations/documents/delete", wrap(`{"documentIds":["d1"]}`), "organizationId"},
		// permissions
		{"permissions/add unknown type", "/v2/auth/permissions/add", res(`{"type":"workspace","id":"o-new"}`), "type"},
		{"permissions/add unknown role", "/v2/auth/permissions/add", res(`{"type":"organization","id":"o-new","accessRole":"owner"}`), "accessRole"},
		{"permissions/add blank id", "/v2/auth/permissions/add", res(`{"type":"organization","id":"o-new"},{"type":"organization","id":" "}`), "id"},
		{"permissions/add document without organizationId", "/v2/auth/permissions/add", res(`{"type":"organization","id":"o-new"},{"type":"document","id":"d-new"}`), "organizationId"},
		{"permissions/add folder without organizationId", "/v2/auth/permissions/add", res(`{"type":"organization","id":"o-new"},{"type":"folder","id":"f-new"}`), "organizationId"},
		{"permissions/add expiresAt past", "/v2/auth/permissions/add", res(`{"type":"organization","id":"o-new","expiresAt":` + past + `}`), "expiresAt"},
		{"permissions/add expiresAt zero", "/v2/auth/permissions/add", res(`{"type":"organization","id":"o-new","expiresAt":0}`), "expiresAt"},
		{"permissions/add expiresAt a string", "/v2/auth/permissions/add", res(`{"type":"organization","id":"o-new","expiresAt":"tomorrow"}`), "expiresAt"},
		{"permissions/add resources empty", "/v2/auth/permissions/add", res(``), "resources"},
		{"permissions/add user missing", "/v2/auth/permissions/add", wrap(`{"permissions":{"resources":[{"type":"organization","id":"o-new"}]}}`), "user"},
		{"permissions/add user a string", "/v2/auth/permissions/add", wrap(`{"user":"mallory","permissions":{"resources":[{"type":"organization","id":"o-new"}]}}`), "user"},
		{"permissions/add user without id", "/v2/auth/permissions/add", wrap(`{"user":{},"permissions":{"resources":[{"type":"organization","id":"o-new"}]}}`), "userId"},
		{"permissions/add permissions missing", "/v2/auth/permissions/add", wrap(`{"user":{"userId":"mallory"}}`), "permissions"},
		{"permissions/add resources an object", "/v2/auth/permissions/add", wrap(`{"user":{"userId":"mallory"},"permissions":{"resources":{"type":"organization","id":"o-new"}}}`), "resources"},
		{"permissions/add $ key", "/v2/auth/permissions/add", res(`{"type":"organization","id":"o-new","$set":{"accessRole":"editor"}}`), "$set"},
		{"permissions/get userIds missing", "/v2/auth/permissions/get", wrap(`{"organizationId":"acme"}`), "userIds"},
		{"permissions/get userIds a string", "/v2/auth/permissions/get", wrap(`{"organizationId":"acme","userIds":"alice"}`), "userIds"},
		{"permissions/get organizationId missing", "/v2/auth/permissions/get", wrap(`{"userIds":["alice"]}`), "organizationId"},
		{"permissions/get skip a string", "/v2/auth/permissions/get", wrap(`{"organizationId":"acme","userIds":["alice"],"skipResourceExistenceValidation":"yes"}`), "skipResourceExistenceValidation"},
		{"permissions/remove userId missing", "/v2/auth/permissions/remove", wrap(`{"permissions":{"resources":[{"type":"organization","id":"acme"}]}}`), "userId"},
		{"permissions/remove document without organizationId", "/v2/auth/permissions/remove", wrap(`{"userId":"alice","permissions":{"resources":[{"type":"organization","id":"acme"},{"type":"document","id":"d1"}]}}`), "organizationId"},
		{"permissions/remove unknown type", "/v2/auth/permissions/remove", wrap(`{"userId":"alice","permissions":{"resources":[{"type":"organization","id":"acme"},{"type":"team","id":"t"}]}}`), "type"},
		{"permissions/remove permissions missing", "/v2/auth/permissions/remove", wrap(`{"userId":"alice"}`), "permissions"},
		{"permissions/remove resources a string", "/v2/auth/permissions/remove", wrap(`{"userId":"alice","permissions":{"resources":"acme"}}`), "resources"},
		// signatures
		{"signature permissions empty", "/v2/auth/generate_signature", wrap(`{"permissions":[]}`), "permissions"},
		{"signature accessRole on an organization", "/v2/auth/generate_signature", sig(`{"userId":"u","resourceId":"acme","type":"organization","hasAccess":true,"accessRole":"editor"}`), "accessRole"},
		{"signature hasAccess missing", "/v2/auth/generate_signature", sig(`{"userId":"u","resourceId":"acme","type":"organization"}`), "hasAccess"},
		{"signature hasAccess a string", "/v2/auth/generate_signature", sig(`{"userId":"u","resourceId":"acme","type":"organization","hasAccess":"yes"}`), "hasAccess"},
		{"signature unknown type", "/v2/auth/generate_signature", sig(`{"userId":"u","resourceId":"acme","type":"team","hasAccess":true}`), "type"},
		{"signature unknown role", "/v2/auth/generate_signature", sig(`{"userId":"u","resourceId":"d1","type":"document","hasAccess":true,"accessRole":"owner"}`), "accessRole"},
		{"signature expiresAt a string", "/v2/auth/generate_signature", sig(`{"userId":"u","resourceId":"d1","type":"document","hasAccess":true,"expiresAt":"soon"}`), "expiresAt"},
		{"signature blank userId", "/v2/auth/generate_signature", sig(`{"userId":" ","resourceId":"acme","type":"organization","hasAccess":true}`), "userId"},
		{"verify signature missing", "/v2/auth/signature/verify", sig(`{"userId":"u","resourceId":"acme","type":"organization","hasAccess":true}`), "signature"},
		{"verify signature a number", "/v2/auth/signature/verify", wrap(`{"permissions":[{"userId":"u","resourceId":"acme","type":"organization","hasAccess":true}],"signature":12}`), "signature"},
		{"verify permissions missing", "/v2/auth/signature/verify", wrap(`{"signature":"ab"}`), "permissions"},
		// user tokens
		{"token invalid email", "/v2/auth/generate_token", token(`{"name":"M","email":"not-an-email"}`, ``), "email"},
		{"token email missing", "/v2/auth/generate_token", token(`{"name":"M"}`, ``), "email"},
		{"token blank name", "/v2/auth/generate_token", token(`{"name":"  ","email":"m@example.com"}`, ``), "name"},
		{"token isAdmin a string", "/v2/auth/generate_token", token(`{"name":"M","email":"m@example.com","isAdmin":"no"}`, ``), "isAdmin"},
		{"token userProperties missing", "/v2/auth/generate_token", wrap(`{"userId":"mallory","permissions":{"resources":[]}}`), "userProperties"},
		{"token permissions missing", "/v2/auth/generate_token", wrap(`{"userId":"mallory","userProperties":` + okProps + `}`), "permissions"},
		{"token resources missing", "/v2/auth/generate_token", wrap(`{"userId":"mallory","userProperties":` + okProps + `,"permissions":{}}`), "resources"},
		{"token userId blank", "/v2/auth/generate_token", wrap(`{"userId":"","userProperties":` + okProps + `,"permissions":{"resources":[]}}`), "userId"},
		{"token userId a number", "/v2/auth/generate_token", wrap(`{"userId":5,"userProperties":` + okProps + `,"permissions":{"resources":[]}}`), "userId"},
		{"token document without organizationId", "/v2/auth/generate_token", token(okProps, `{"type":"document","id":"d1"}`), "organizationId"},
		{"token expiresAt past", "/v2/auth/generate_token", token(okProps, `{"type":"organization","id":"acme","expiresAt":`+past+`}`), "expiresAt"},
		{"token unknown resource type", "/v2/auth/generate_token", token(okProps, `{"type":"space","id":"acme"}`), "type"},
		{"token unknown role", "/v2/auth/generate_token", token(okProps, `{"type":"organization","id":"acme","accessRole":"admin"}`), "accessRole"},
		{"token $ key in userProperties", "/v2/auth/generate_token", token(`{"name":"M","email":"m@example.com","$where":"1"}`, ``), "$where"},
	}
}

// jsonIDs renders n distinct ids as a JSON array.
func jsonIDs(prefix string, n int) string { return `["` + strings.Join(ids(prefix, n), `","`) + `"]` }

// TestMalformedBodiesWriteNothing sends every broken body through the
// gateway: each is INVALID_ARGUMENT (400) naming the problem, and the
// workspace reads back exactly as before.
func TestMalformedBodiesWriteNothing(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	s.ok("/v2/users/add", map[string]any{"organizationId": "acme", "users": []any{map[string]any{"userId": "alice", "name": "Alice", "email": "a@example.com"}}})
	s.ok("/v2/users/add", map[string]any{"organizationId": "acme", "documentId": "d1", "createDocument": true, "users": userRefs("carol")})
	s.ok("/v2/organizations/folders/add", map[string]any{"organizationId": "acme", "folders": []any{map[string]any{"folderId": "f1", "folderName": "F"}}})
	s.ok("/v2/organizations/usergroups/add", map[string]any{"organizationId": "acme", "organizationUserGroups": []any{map[string]any{"groupId": "g1"}}})
	s.ok("/v1/organizations/usergroups/users/add", map[string]any{"organizationId": "acme", "organizationUserGroupId": "g1", "userIds": []string{"alice"}})
	view := identityView{org: "acme", users: []string{"alice", "carol", "mallory"}, folders: []string{"f1", "f-new"}, docs: []string{"d1", "d-new"}, groups: []string{"g1", "g2"}}
	before := s.snapshot(s.ws, view)
	auth := map[string]string{"x-svc-api-key": s.ws.apiKey, "x-svc-auth-token": s.ws.authToken}

	for _, tc := range append(envelopeCases(), operationCases()...) {
		t.Run(tc.name, func(t *testing.T) {
			r := s.raw(http.MethodPost, tc.path, []byte(tc.body), auth)
			if r.Status() != "INVALID_ARGUMENT" || r.Code != 400 {
				t.Errorf("want INVALID_ARGUMENT (400), got %d %.300s", r.Code, r.Raw)
			} else if msg, _ := r.Error["message"].(string); !strings.Contains(msg, tc.mention) {
				t.Errorf("message %q does not mention %q", msg, tc.mention)
			}
			if after := s.snapshot(s.ws, view); after != before {
				t.Errorf("refused request changed state:\n%s", changedLines(before, after))
				before = after // report each writer once
			}
		})
	}

	// Controls: well-formed versions of the refused writes, one after the
	// other, each of which the snapshot must see.
	controls := []struct {
		path string
		data map[string]any
	}{
		{"/v2/users/add", map[string]any{"organizationId": "acme", "users": userRefs("mallory")}},
		{"/v2/users/update", map[string]any{"organizationId": "acme", "users": []any{map[string]any{"userId": "alice", "name": "X"}}}},
		{"/v1/users/update", map[string]any{"organizationId": "acme", "users": []any{map[string]any{"userId": "alice", "name": "Y"}}}},
		{"/v2/organizations/usergroups/add", map[string]any{"organizationId": "o-new", "createOrganization": true, "organizationUserGroups": []any{map[string]any{"groupId": "g2"}}}},
		{"/v1/organizations/usergroups/users/add", map[string]any{"organizationId": "acme", "organizationUserGroupId": "g1", "userIds": []string{"carol"}}},
		{"/v1/organizations/usergroups/users/delete", map[string]any{"organizationId": "acme", "organizationUserGroupId": "g1", "deleteAll": true}},
		{"/v2/organizations/add", map[string]any{"organizations": []any{map[string]any{"organizationId": "o-other"}}}},
		{"/v2/organizations/update", map[string]any{"organizations": []any{map[string]any{"organizationId": "acme", "organizationName": "Z"}}}},
		{"/v2/auth/permissions/add", map[string]any{"user": map[string]any{"userId": "mallory"}, "permissions": map[string]any{"resources": []any{map[string]any{"type": "organization", "id": "o-perm"}}}}},
		{"/v2/auth/permissions/remove", map[string]any{"userId": "alice", "permissions": map[string]any{"resources": []any{map[string]any{"type": "organization", "id": "acme"}}}}},
		{"/v2/organizations/folders/add", map[string]any{"organizationId": "acme", "folders": []any{map[string]any{"folderId": "f-new"}}}},
		{"/v1/organizations/folders/update", map[string]any{"organizationId": "acme", "folders": []any{map[string]any{"folderId": "f1", "folderName": "X"}}}},
		{"/v2/organizations/folders/delete", map[string]any{"organizationId": "acme", "folderId": "f1"}},
		{"/v2/organizations/documents/add", map[string]any{"organizationId": "acme", "documents": []any{map[string]any{"documentId": "d-new"}}}},
		{"/v2/organizations/documents/update", map[string]any{"organizationId": "acme", "documents": []any{map[string]any{"documentId": "d1", "documentName": "X"}}}},
		{"/v1/users/delete", map[string]any{"organizationId": "acme", "documentId": "d1", "userIds": []string{"carol"}}},
		{"/v2/organizations/documents/delete", map[string]any{"organizationId": "acme", "documentIds": []string{"d1"}}},
		{"/v1/users/delete", map[string]any{"organizationId": "acme", "userIds": []string{"mallory"}}},
		{"/v2/organizations/delete", map[string]any{"organizationIds": []string{"acme"}}},
	}
	t.Run("controls: well-formed writes are visible", func(t *testing.T) {
		prev := before
		for i, c := range controls {
			s.ok(c.path, c.data)
			next := s.snapshot(s.ws, view)
			if next == prev {
				t.Fatalf("control %d (%s %v) is invisible to the snapshot", i, c.path, c.data)
			}
			prev = next
		}
	})
}

// changedLines lists the lines of after that are not in before.
func changedLines(before, after string) string {
	old := map[string]bool{}
	for _, l := range strings.Split(before, "\n") {
		old[l] = true
	}
	var out []string
	for _, l := range strings.Split(after, "\n") {
		if !old[l] {
			out = append(out, "+ "+l)
		}
	}
	return strings.Join(out, "\n")
}
