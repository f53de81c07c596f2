package httpapi_test

import (
	"maps"
	"testing"
)

func TestDocumentsLifecycle(t *testing.T) {
	e := newEnv(t)
	before := e.records()
	e.fails("ws1", "/v2/organizations/documents/add", map[string]any{"organizationId": "o1", "documents": []any{map[string]any{"documentId": "d1"}}}, "NOT_FOUND")
	e.fails("ws1", "/v2/organizations/documents/add", map[string]any{
		"organizationId": "o1", "createOrganization": true, "folderId": "f1", "documents": []any{map[string]any{"documentId": "d1"}},
	}, "NOT_FOUND")
	if after := e.records(); !maps.Equal(before, after) {
		t.Fatalf("refused documents/add wrote: %v → %v", before, after)
	}

	r := e.ok("ws1", "/v2/organizations/documents/add", map[string]any{
		"organizationId": "o1", "createOrganization": true, "folderId": "f1", "createFolder": true,
		"documents": []any{
			map[string]any{"documentId": "d1", "documentName": "One", "accessType": "public", "owner": "ada"},
			map[string]any{"documentId": "d2", "accessType": "organizationPrivate"},
		},
	})
	if d1 := r.item("d1"); d1["success"] != true || d1["id"] != "d1" {
		t.Fatalf("d1 = %v", d1)
	}
	again := e.ok("ws1", "/v2/organizations/documents/add", map[string]any{"organizationId": "o1", "documents": []any{map[string]any{"documentId": "d1"}}})
	if d1 := again.item("d1"); d1["success"] != false || d1["code"] != "already-exists" {
		t.Fatalf("duplicate d1 = %v", d1)
	}

	got := e.ok("ws1", "/v2/organizations/documents/get", map[string]any{"organizationId": "o1", "documentIds": []string{"ghost", "d2", "d1"}})
	items := got.data().([]any)
	ghost, d2, d1 := items[0].(map[string]any), items[1].(map[string]any), items[2].(map[string]any)
	if ghost["id"] != "ghost" || ghost["success"] != false || ghost["code"] != "not-found" {
		t.Fatalf("ghost = %v", ghost)
	}
	if d2["accessType"] != "organizationPrivate" || d1["documentName"] != "One" || d1["accessType"] != "public" ||
		d1["owner"] != "ada" || d1["folderId"] != "f1" || d1["disabled"] != false || d1["createdAt"] == nil {
		t.Fatalf("d1 = %v, d2 = %v", d1, d2)
	}
	if tok, present := got.result()["pageToken"]; !present || tok != nil {
		t.Fatalf("pageToken = %v, present %v", tok, present)
	}

	r = e.ok("ws1", "/v2/organizations/documents/update", map[string]any{"organizationId": "o1", "documents": []any{
		map[string]any{"documentId": "d1", "documentName": "Uno", "accessType": "restricted", "disabled": true},
		map[string]any{"documentId": "ghost"},
	}})
	if r.item("d1")["success"] != true || r.item("ghost")["success"] != false || r.item("ghost")["code"] != "not-found" {
		t.Fatalf("update = %v", r.dataMap())
	}
	d1 = e.ok("ws1", "/v2/organizations/documents/get", map[string]any{"organizationId": "o1", "documentIds": []string{"d1"}}).data().([]any)[0].(map[string]any)
	if d1["documentName"] != "Uno" || d1["accessType"] != "restricted" || d1["disabled"] != true || d1["owner"] != "ada" {
		t.Fatalf("d1 after update = %v", d1)
	}

	e.addUsers("ws1", map[string]any{"organizationId": "o1", "documentId": "d1"}, "u1")
	r = e.ok("ws1", "/v2/organizations/documents/delete", map[string]any{"organizationId": "o1", "documentIds": []string{"d1", "ghost"}})
	if r.item("d1")["success"] != true || r.item("ghost")["success"] != false {
		t.Fatalf("delete = %v", r.dataMap())
	}
	if counts := e.records(); counts["documents"] != 1 || counts["memberships"] != 0 {
		t.Fatalf("after delete: %v", counts)
	}
	e.fails("ws1", "/v2/organizations/documents/update", map[string]any{"organizationId": "o1", "documents": []any{map[string]any{"documentId": "d2", "accessType": "secret"}}}, "INVALID_ARGUMENT")
}

func TestGetDocumentsPages(t *testing.T) {
	e := newEnv(t)
	var docs []any
	for _, id := range []string{"d3", "d1", "d5", "d2", "d4"} {
		docs = append(docs, map[string]any{"documentId": id})
	}
	e.ok("ws1", "/v2/organizations/documents/add", map[string]any{"organizationId": "o1", "createOrganization": true, "documents": docs})
	e.ok("ws1", "/v2/organizations/documents/add", map[string]any{"organizationId": "o1", "folderId": "f", "createFolder": true, "documents": []any{map[string]any{"documentId": "in-f"}}})

	var ids []string
	q := map[string]any{"organizationId": "o1", "pageSize": 2}
	for range 5 {
		r := e.ok("ws1", "/v2/organizations/documents/get", q)
		for _, it := range r.data().([]any) {
			ids = append(ids, it.(map[string]any)["id"].(string))
		}
		if r.result()["pageToken"] == nil {
			break
		}
		q["pageToken"] = r.result()["pageToken"]
	}
	if len(ids) != 6 || ids[0] != "d1" || ids[5] != "in-f" {
		t.Fatalf("ids = %v", ids)
	}
	inF := e.ok("ws1", "/v2/organizations/documents/get", map[string]any{"organizationId": "o1", "folderId": "f"}).data().([]any)
	if len(inF) != 1 || inF[0].(map[string]any)["id"] != "in-f" {
		t.Fatalf("folder f = %v", inF)
	}
}
