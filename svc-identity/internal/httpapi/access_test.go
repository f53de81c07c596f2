package httpapi_test

import (
	"testing"
)

// docAccess is user u's permissions/get entry for document doc of o1.
func (e *env) docAccess(u, doc string) map[string]any {
	e.t.Helper()
	r := e.ok("ws1", "/v2/auth/permissions/get", map[string]any{
		"organizationId": "o1", "userIds": []string{u}, "documentIds": []string{doc},
	})
	return r.item(u)["documents"].(map[string]any)[doc].(map[string]any)
}

// realtimeDecision asks /internal/realtime/access with a fresh token of u
// that carries the given resources.
func (e *env) realtimeDecision(u, doc string, grants ...any) map[string]any {
	e.t.Helper()
	if grants == nil {
		grants = []any{}
	}
	tok := e.ok("ws1", "/v2/auth/generate_token", map[string]any{
		"userId": u, "userProperties": map[string]any{"name": "N", "email": u + "@example.com"},
		"permissions": resources(grants...),
	}).dataMap()["token"].(string)
	r := e.callAs(contentPrincipal, "/internal/realtime/access", map[string]any{
		"token": tok, "organizationId": "o1", "documentId": doc,
	})
	if r.code != 200 {
		e.t.Fatalf("realtime access: %d %s", r.code, r.raw)
	}
	return r.dataMap()
}

func TestFolderAndDocumentAccessUpdate(t *testing.T) {
	e := newEnv(t)
	e.ok("ws1", "/v2/organizations/folders/add", map[string]any{"organizationId": "o1", "createOrganization": true,
		"folders": []any{map[string]any{"folderId": "f1"}, map[string]any{"folderId": "f2", "accessType": "restricted"}}})
	e.ok("ws1", "/v2/organizations/documents/add", map[string]any{"organizationId": "o1", "folderId": "f1",
		"documents": []any{map[string]any{"documentId": "d1"}}})
	e.addUsers("ws1", map[string]any{"organizationId": "o1"}, "member")

	// An outsider sees nothing of an organizationPrivate folder's document.
	if a := e.docAccess("outsider", "d1"); a["errorCode"] != "permission_denied" {
		t.Fatalf("outsider before: %v", a)
	}
	r := e.ok("ws1", "/v2/organizations/folders/access/update", map[string]any{
		"organizationId": "o1", "folderIds": []string{"f1", "ghost"}, "accessType": "public"})
	if it := r.item("f1"); it["success"] != true || it["accessType"] != "public" {
		t.Fatalf("f1 = %v", it)
	}
	if it := r.item("ghost"); it["success"] != false {
		t.Fatalf("ghost = %v", it)
	}
	// The document inherits public: viewer for anyone, in permissions/get
	// and in the realtime decision on a token without grants.
	if a := e.docAccess("outsider", "d1"); a["accessRole"] != "viewer" || a["accessType"] != "public" {
		t.Fatalf("outsider after public folder: %v", a)
	}
	if d := e.realtimeDecision("outsider", "d1"); d["allowed"] != true || d["accessRole"] != "viewer" {
		t.Fatalf("realtime after public folder: %v", d)
	}

	// The document's own restricted wins over the folder: the member's
	// organization grant no longer reaches it.
	r = e.ok("ws1", "/v2/organizations/documents/access/update", map[string]any{
		"organizationId": "o1", "documentIds": []string{"d1"}, "accessType": "restricted"})
	if it := r.item("d1"); it["success"] != true || it["accessType"] != "restricted" || it["message"] == "" {
		t.Fatalf("d1 = %v", it)
	}
	if a := e.docAccess("member", "d1"); a["errorCode"] != "permission_denied" || a["accessType"] != "restricted" {
		t.Fatalf("member on restricted doc: %v", a)
	}
	if d := e.realtimeDecision("member", "d1", map[string]any{"type": "organization", "id": "o1"}); d["allowed"] != false {
		t.Fatalf("realtime on restricted doc: %v", d)
	}
	// organizationPrivate on the document: back to following its folder.
	e.ok("ws1", "/v2/organizations/documents/access/update", map[string]any{
		"organizationId": "o1", "documentIds": []string{"d1"}, "accessType": "organizationPrivate"})
	if a := e.docAccess("outsider", "d1"); a["accessType"] != "public" {
		t.Fatalf("after organizationPrivate: %v", a)
	}

	// Moving the document into the restricted folder f2: what it inherits
	// follows; its own grants stay.
	e.ok("ws1", "/v2/auth/permissions/add", map[string]any{"user": map[string]any{"userId": "owner"},
		"permissions": resources(map[string]any{"type": "document", "id": "d1", "organizationId": "o1"})})
	r = e.ok("ws1", "/v2/organizations/documents/move", map[string]any{
		"organizationId": "o1", "documentIds": []string{"d1"}, "folderId": "f2"})
	if r.result()["message"] != "Documents moved successfully." {
		t.Fatalf("move: %s", r.raw)
	}
	if a := e.docAccess("outsider", "d1"); a["errorCode"] != "permission_denied" || a["accessType"] != "restricted" {
		t.Fatalf("outsider after move: %v", a)
	}
	if a := e.docAccess("owner", "d1"); a["accessRole"] != "editor" {
		t.Fatalf("owner after move: %v", a)
	}
	docs := e.ok("ws1", "/v2/organizations/documents/get", map[string]any{"organizationId": "o1", "documentIds": []string{"d1"}})
	if got := docs.data().([]any)[0].(map[string]any)["folderId"]; got != "f2" {
		t.Fatalf("folderId after move = %v", got)
	}
	e.fails("ws1", "/v2/organizations/documents/move", map[string]any{
		"organizationId": "o1", "documentIds": []string{"d1"}, "folderId": "nowhere"}, "NOT_FOUND")

	for name, body := range map[string]map[string]any{
		"unknown access type": {"organizationId": "o1", "folderIds": []string{"f1"}, "accessType": "secret"},
		"no ids":              {"organizationId": "o1", "folderIds": []string{}, "accessType": "public"},
		"blank id":            {"organizationId": "o1", "folderIds": []string{""}, "accessType": "public"},
		"31 ids":              {"organizationId": "o1", "folderIds": make([]string, 31), "accessType": "public"},
	} {
		t.Run(name, func(t *testing.T) {
			e.fails("ws1", "/v2/organizations/folders/access/update", body, "INVALID_ARGUMENT")
		})
	}
}

func TestDisableStateTurnsAccessOff(t *testing.T) {
	e := newEnv(t)
	e.ok("ws1", "/v2/organizations/documents/add", map[string]any{"organizationId": "o1", "createOrganization": true,
		"documents": []any{map[string]any{"documentId": "d1"}, map[string]any{"documentId": "d2"}}})
	e.addUsers("ws1", map[string]any{"organizationId": "o1"}, "member")
	orgGrant := map[string]any{"type": "organization", "id": "o1"}
	if d := e.realtimeDecision("member", "d1", orgGrant); d["allowed"] != true {
		t.Fatalf("before: %v", d)
	}

	r := e.ok("ws1", "/v2/organizations/documents/access/disablestate/update", map[string]any{
		"organizationId": "o1", "documentIds": []string{"d1"}, "disabled": true})
	if it := r.item("d1"); it["success"] != true || it["disabled"] != true {
		t.Fatalf("d1 = %v", it)
	}
	if a := e.docAccess("member", "d1"); a["errorCode"] != "permission_denied" {
		t.Fatalf("member on disabled doc: %v", a)
	}
	if d := e.realtimeDecision("member", "d1", orgGrant); d["allowed"] != false {
		t.Fatalf("realtime on disabled doc: %v", d)
	}
	if a := e.docAccess("member", "d2"); a["accessRole"] != "editor" {
		t.Fatalf("d2 stays open: %v", a)
	}

	// The organization switch covers every document; off again restores.
	r = e.ok("ws1", "/v2/organizations/access/disablestate/update", map[string]any{
		"organizationIds": []string{"o1", "o-new"}, "disabled": true})
	if it := r.item("o-new"); it["success"] != true {
		t.Fatalf("o-new = %v", it)
	}
	if a := e.docAccess("member", "d2"); a["errorCode"] != "permission_denied" {
		t.Fatalf("member in disabled org: %v", a)
	}
	if d := e.realtimeDecision("member", "d2", orgGrant); d["allowed"] != false {
		t.Fatalf("realtime in disabled org: %v", d)
	}
	orgs := e.ok("ws1", "/v2/organizations/get", map[string]any{"organizationIds": []string{"o-new"}})
	if got := orgs.data().([]any)[0].(map[string]any)["disabled"]; got != true {
		t.Fatalf("o-new created disabled = %v", got)
	}
	e.ok("ws1", "/v2/organizations/access/disablestate/update", map[string]any{"organizationIds": []string{"o1"}, "disabled": false})
	e.ok("ws1", "/v2/organizations/documents/access/disablestate/update", map[string]any{
		"organizationId": "o1", "documentIds": []string{"d1"}, "disabled": false})
	if d := e.realtimeDecision("member", "d1", orgGrant); d["allowed"] != true {
		t.Fatalf("after re-enabling: %v", d)
	}
	e.fails("ws1", "/v2/organizations/access/disablestate/update", map[string]any{"organizationIds": []string{"o1"}}, "INVALID_ARGUMENT")
	e.fails("ws1", "/v2/organizations/access/disablestate/update", map[string]any{"organizationIds": []string{"o1"}, "disabled": "yes"}, "INVALID_ARGUMENT")
}
