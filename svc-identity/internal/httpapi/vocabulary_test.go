package httpapi_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/opencollab/backend/svc-identity/internal/signing"
)

// accessWords are the only values an answer may give to accessType and
// accessRole: the interface's roles and the folder access types. The stored
// document default ("default") is an input alias, never an answer.
var accessWords = map[string][]string{
	"accessType": {"organizationPrivate", "restricted", "public"},
	"accessRole": {"viewer", "editor"},
}

// checkVocabulary walks an answer and fails on any accessType or
// accessRole outside accessWords.
func checkVocabulary(t *testing.T, where string, v any) {
	t.Helper()
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if words, ok := accessWords[k]; ok {
				s, _ := x.(string)
				if !slices.Contains(words, s) {
					t.Errorf("%s: %s = %v, not one of %v", where, k, x, words)
				}
			}
			checkVocabulary(t, where+"."+k, x)
		}
	case []any:
		for _, x := range v {
			checkVocabulary(t, where, x)
		}
	}
}

// One document has one access type in every answer: documents/get,
// documents/access/update and permissions/get agree, for documents with
// their own type, inheriting a folder's, and in no folder; folders/get and
// permissions/get agree for folders; no answer says "default".
func TestOneAccessVocabularyInEveryAnswer(t *testing.T) {
	e := newEnv(t)
	e.ok("ws1", "/v2/organizations/folders/add", map[string]any{"organizationId": "o1", "createOrganization": true,
		"folders": []any{map[string]any{"folderId": "open"}, map[string]any{"folderId": "closed", "accessType": "restricted"},
			map[string]any{"folderId": "shown", "accessType": "public"}}})
	e.ok("ws1", "/v2/organizations/documents/add", map[string]any{"organizationId": "o1",
		"documents": []any{map[string]any{"documentId": "loose", "accessType": "default"}, map[string]any{"documentId": "own", "accessType": "public"}}})
	for _, f := range []string{"open", "closed", "shown"} {
		e.ok("ws1", "/v2/organizations/documents/add", map[string]any{"organizationId": "o1", "folderId": f,
			"documents": []any{map[string]any{"documentId": "in-" + f, "accessType": "organizationPrivate"}}})
	}
	docs := []string{"loose", "own", "in-open", "in-closed", "in-shown"}
	want := map[string]string{"loose": "organizationPrivate", "own": "public", "in-open": "organizationPrivate",
		"in-closed": "restricted", "in-shown": "public"}
	e.addUsers("ws1", map[string]any{"organizationId": "o1"}, "member")

	perms := e.ok("ws1", "/v2/auth/permissions/get", map[string]any{"organizationId": "o1", "userIds": []string{"member"},
		"documentIds": docs, "folderIds": []string{"open", "closed", "shown"}})
	checkVocabulary(t, "permissions/get", perms.body)
	listed := e.ok("ws1", "/v2/organizations/documents/get", map[string]any{"organizationId": "o1", "documentIds": docs})
	checkVocabulary(t, "documents/get", listed.body)
	paged := e.ok("ws1", "/v2/organizations/documents/get", map[string]any{"organizationId": "o1"})
	checkVocabulary(t, "documents/get (paged)", paged.body)
	byID := map[string]map[string]any{}
	for _, it := range append(listed.data().([]any), paged.data().([]any)...) {
		d := it.(map[string]any)
		if prev, ok := byID[d["id"].(string)]; ok && prev["accessType"] != d["accessType"] {
			t.Errorf("%s: documents/get by id says %v, paged says %v", d["id"], prev["accessType"], d["accessType"])
		}
		byID[d["id"].(string)] = d
	}
	permDocs := perms.item("member")["documents"].(map[string]any)
	for _, id := range docs {
		p := permDocs[id].(map[string]any)["accessType"]
		if byID[id]["accessType"] != want[id] || p != want[id] {
			t.Errorf("%s: documents/get %v, permissions/get %v, want %s", id, byID[id]["accessType"], p, want[id])
		}
	}
	folders := e.ok("ws1", "/v2/organizations/folders/get", map[string]any{"organizationId": "o1"})
	checkVocabulary(t, "folders/get", folders.body)
	permFolders := perms.item("member")["folders"].(map[string]any)
	for _, it := range folders.data().([]any) {
		f := it.(map[string]any)
		if p := permFolders[f["folderId"].(string)].(map[string]any)["accessType"]; p != f["accessType"] {
			t.Errorf("folder %v: folders/get %v, permissions/get %v", f["folderId"], f["accessType"], p)
		}
	}

	// Setting organizationPrivate on a document in the restricted folder
	// answers what now applies: the folder's restricted.
	upd := e.ok("ws1", "/v2/organizations/documents/access/update", map[string]any{
		"organizationId": "o1", "documentIds": []string{"in-closed", "loose"}, "accessType": "organizationPrivate"})
	checkVocabulary(t, "documents/access/update", upd.body)
	if got := upd.item("in-closed")["accessType"]; got != "restricted" || e.docAccess("member", "in-closed")["accessType"] != got {
		t.Errorf("access/update in-closed answered %v; permissions/get says %v", got, e.docAccess("member", "in-closed")["accessType"])
	}
	if got := upd.item("loose")["accessType"]; got != "organizationPrivate" {
		t.Errorf("access/update loose answered %v", got)
	}

	// The user token carries the same words: an omitted role is editor.
	tok := e.ok("ws1", "/v2/auth/generate_token", map[string]any{
		"userId": "member", "userProperties": map[string]any{"name": "M", "email": "m@example.com"},
		"permissions": resources(map[string]any{"type": "folder", "id": "open", "organizationId": "o1"},
			map[string]any{"type": "document", "id": "own", "organizationId": "o1", "accessRole": "viewer"}),
	}).dataMap()["token"].(string)
	sec, _ := signing.NewSecretStore(e.db).Get(t.Context(), "ws1")
	claims, err := signing.ParseToken(sec.JWT, tok, e.now)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range claims.Resources {
		if !slices.Contains(accessWords["accessRole"], r.AccessRole) {
			t.Errorf("token resource %s %s: accessRole %q", r.Type, r.ID, r.AccessRole)
		}
	}
	if strings.Contains(string(perms.raw)+string(listed.raw)+string(upd.raw), `"default"`) {
		t.Error(`an answer says "default"`)
	}
}

// The realtime decision's expiresAt (the token's expiry, for svc-content)
// is epoch milliseconds like every other expiresAt.
func TestRealtimeAccessExpiryIsMilliseconds(t *testing.T) {
	e := newEnv(t)
	got := e.realtimeDecision("u1", "d1", map[string]any{"type": "document", "id": "d1", "organizationId": "o1"})
	want := e.now.Add(48*time.Hour).Unix() * 1000
	if got["allowed"] != true || got["expiresAt"] != float64(want) {
		t.Fatalf("decision = %v, want allowed until %d (ms)", got, want)
	}
}
