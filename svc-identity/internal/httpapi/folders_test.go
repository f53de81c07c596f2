package httpapi_test

import (
	"fmt"
	"maps"
	"testing"
)

func TestFoldersAddAndGet(t *testing.T) {
	e := newEnv(t)
	before := e.records()
	e.fails("ws1", "/v2/organizations/folders/add", map[string]any{
		"organizationId": "o1", "folders": []any{map[string]any{"folderId": "a"}},
	}, "NOT_FOUND")
	if after := e.records(); !maps.Equal(before, after) {
		t.Fatalf("refused folders/add wrote: %v → %v", before, after)
	}

	r := e.ok("ws1", "/v2/organizations/folders/add", map[string]any{
		"organizationId": "o1", "createOrganization": true,
		"folders": []any{
			map[string]any{"folderId": "a", "folderName": "A", "accessType": "restricted"},
			map[string]any{"folderId": "b", "parentFolderId": "a"},
			map[string]any{"folderId": "c", "parentFolderId": "b"},
			map[string]any{"folderId": "orphan", "parentFolderId": "nowhere"},
			map[string]any{"folderId": "a"},
		},
	})
	if b := r.item("b"); b["success"] != true || b["id"] != "b" {
		t.Fatalf("b = %v", b)
	}
	if orphan := r.item("orphan"); orphan["success"] != false {
		t.Fatalf("orphan = %v", orphan)
	}
	// "a" appears twice: the map keeps the later, failed attempt.
	if a := r.item("a"); a["success"] != false || a["message"] != "Folder already exists." {
		t.Fatalf("duplicate a = %v", a)
	}

	flat := e.ok("ws1", "/v2/organizations/folders/get", map[string]any{"organizationId": "o1"}).data().([]any)
	if len(flat) != 3 {
		t.Fatalf("flat = %v", flat)
	}
	a := flat[0].(map[string]any)
	if a["folderId"] != "a" || a["folderName"] != "A" || a["accessType"] != "restricted" || a["parentFolderId"] != "root" ||
		fmt.Sprint(a["ancestors"]) != "[root]" || a["organizationId"] != "o1" || a["inheritAccessFromParent"] != false {
		t.Fatalf("a = %v", a)
	}
	if _, nested := a["subFolders"]; nested {
		t.Fatalf("flat list carries subFolders: %v", a)
	}

	tree := e.ok("ws1", "/v2/organizations/folders/get", map[string]any{"organizationId": "o1", "folderId": "a"}).data().([]any)
	top := tree[0].(map[string]any)
	subs := top["subFolders"].([]any)
	if len(tree) != 1 || len(subs) != 1 || subs[0].(map[string]any)["folderId"] != "b" {
		t.Fatalf("tree = %v", tree)
	}
	if deeper := subs[0].(map[string]any)["subFolders"].([]any); len(deeper) != 0 {
		t.Fatalf("default depth 1 went deeper: %v", deeper)
	}
	deep := e.ok("ws1", "/v2/organizations/folders/get", map[string]any{"organizationId": "o1", "folderId": "a", "maxDepth": 2}).data().([]any)
	c := deep[0].(map[string]any)["subFolders"].([]any)[0].(map[string]any)["subFolders"].([]any)[0].(map[string]any)
	if c["folderId"] != "c" || fmt.Sprint(c["ancestors"]) != "[root a b]" || c["inheritAccessFromParent"] != true {
		t.Fatalf("c = %v", c)
	}
	e.fails("ws1", "/v2/organizations/folders/get", map[string]any{"organizationId": "o1", "folderId": "nope"}, "NOT_FOUND")
	e.fails("ws1", "/v2/organizations/folders/get", map[string]any{"organizationId": "o1", "maxDepth": -1}, "INVALID_ARGUMENT")
	e.fails("ws1", "/v2/organizations/folders/add", map[string]any{
		"organizationId": "o1", "folders": []any{map[string]any{"folderId": "z", "accessType": "secret"}},
	}, "INVALID_ARGUMENT")
}

func TestFoldersUpdateMovesContents(t *testing.T) {
	e := newEnv(t)
	e.ok("ws1", "/v2/organizations/folders/add", map[string]any{
		"organizationId": "o1", "createOrganization": true,
		"folders": []any{
			map[string]any{"folderId": "a"}, map[string]any{"folderId": "b", "parentFolderId": "a"},
			map[string]any{"folderId": "c", "parentFolderId": "b"}, map[string]any{"folderId": "x"},
		},
	})
	r := e.ok("ws1", "/v1/organizations/folders/update", map[string]any{
		"organizationId": "o1",
		"folders": []any{
			map[string]any{"folderId": "a", "folderName": "Renamed", "parentFolderId": "x"},
			map[string]any{"folderId": "x", "parentFolderId": "c"},
			map[string]any{"folderId": "ghost", "folderName": "G"},
		},
	})
	if a := r.item("a"); a["success"] != true || a["id"] != "a" {
		t.Fatalf("a = %v", a)
	}
	if x := r.item("x"); x["success"] != false {
		t.Fatalf("moving x under its own descendant c = %v", x)
	}
	if g := r.item("ghost"); g["success"] != false {
		t.Fatalf("ghost = %v", g)
	}
	tree := e.ok("ws1", "/v2/organizations/folders/get", map[string]any{"organizationId": "o1"}).data().([]any)
	byID := map[string]map[string]any{}
	for _, it := range tree {
		f := it.(map[string]any)
		byID[f["folderId"].(string)] = f
	}
	if fmt.Sprint(byID["c"]["ancestors"]) != "[root x a b]" || byID["a"]["folderName"] != "Renamed" || byID["a"]["parentFolderId"] != "x" {
		t.Fatalf("after move: a = %v, c = %v", byID["a"], byID["c"])
	}
}

func TestFoldersDelete(t *testing.T) {
	e := newEnv(t)
	e.ok("ws1", "/v2/organizations/folders/add", map[string]any{
		"organizationId": "o1", "createOrganization": true,
		"folders": []any{map[string]any{"folderId": "a"}, map[string]any{"folderId": "b", "parentFolderId": "a"}, map[string]any{"folderId": "keep"}},
	})
	e.ok("ws1", "/v2/organizations/documents/add", map[string]any{"organizationId": "o1", "folderId": "b", "documents": []any{map[string]any{"documentId": "in-b"}}})
	e.addUsers("ws1", map[string]any{"organizationId": "o1", "documentId": "in-b"}, "u1")
	e.addUsers("ws1", map[string]any{"organizationId": "o1", "folderId": "a"}, "u2")

	r := e.ok("ws1", "/v2/organizations/folders/delete", map[string]any{"organizationId": "o1", "folderId": "a"})
	if data, present := r.result()["data"]; !present || data != nil || r.result()["message"] == "" {
		t.Fatalf("delete result = %s", r.raw)
	}
	counts := e.records()
	if counts["folders"] != 1 || counts["documents"] != 0 || counts["memberships"] != 0 {
		t.Fatalf("after delete: %v", counts)
	}
	e.fails("ws1", "/v2/organizations/folders/delete", map[string]any{"organizationId": "o1", "folderId": "a"}, "NOT_FOUND")
	e.fails("ws1", "/v2/organizations/folders/delete", map[string]any{"organizationId": "o1"}, "INVALID_ARGUMENT")
}
