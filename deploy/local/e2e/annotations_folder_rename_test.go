package e2e

import (
	"slices"
	"testing"
)

// commentannotations/get by folderId asks svc-identity for the folder's
// documents, through the whole system: the folder's own documents, not a
// subfolder's nor a loose one's; and commentannotations/update's
// updateUsers renames a user across a document.
func TestAnnotationsByFolderAndUserRenameThroughGateway(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	const org = "acme"
	s.ok("/v2/organizations/folders/add", map[string]any{"organizationId": org, "createOrganization": true,
		"folders": []any{map[string]any{"folderId": "f1"}, map[string]any{"folderId": "sub", "parentFolderId": "f1"}}})
	for folder, docs := range map[string][]string{"f1": {"d1", "d2"}, "sub": {"d3"}, "": {"loose"}} {
		list := []any{}
		for _, d := range docs {
			list = append(list, map[string]any{"documentId": d})
		}
		body := map[string]any{"organizationId": org, "documents": list}
		if folder != "" {
			body["folderId"] = folder
		}
		s.ok("/v2/organizations/documents/add", body)
	}
	for _, d := range []string{"d1", "d2", "d3", "loose"} {
		s.e3AddAnnotations(s.ws, org, d, e3AnnotationIn("a-"+d, "", "ann", "on "+d))
	}

	byFolder := func(body map[string]any) []string {
		t.Helper()
		got := e3AnnotationIDs(t, s.ok("/v2/commentannotations/get", body))
		slices.Sort(got)
		return got
	}
	if got := byFolder(map[string]any{"organizationId": org, "folderId": "f1"}); !slices.Equal(got, []string{"a-d1", "a-d2"}) {
		t.Fatalf("folder f1: %v, want a-d1 a-d2", got)
	}
	if got := byFolder(map[string]any{"organizationId": org, "folderId": "f1", "documentIds": []string{"d2", "loose"}}); !slices.Equal(got, []string{"a-d2"}) {
		t.Fatalf("folder f1 and documentIds: %v, want a-d2", got)
	}
	if got := byFolder(map[string]any{"organizationId": org, "folderId": "nope"}); len(got) != 0 {
		t.Fatalf("an unknown folder matched %v", got)
	}

	r := s.ok("/v2/commentannotations/update", map[string]any{"organizationId": org, "documentId": "d1",
		"updateUsers": []any{map[string]any{"oldUser": map[string]any{"userId": "ann"}, "newUser": map[string]any{"userId": "ann2", "name": "Ann Two"}}}})
	if it := item(t, r, "a-d1"); it["success"] != true {
		t.Fatalf("rename: %s", r.Raw)
	}
	a := s.e3Annotation(s.ws, org, "d1", "a-d1")
	from, _ := a["from"].(map[string]any)
	if from["userId"] != "ann2" || from["name"] != "Ann Two" {
		t.Fatalf("from after the rename: %v", from)
	}
	if other, _ := s.e3Annotation(s.ws, org, "d2", "a-d2")["from"].(map[string]any); other["userId"] != "ann" {
		t.Fatalf("the rename reached another document: %v", other)
	}
}
