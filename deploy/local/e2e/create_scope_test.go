package e2e

import (
	"slices"
	"testing"
)

// createOrganization and createDocument on comment and notification adds
// create them in svc-identity, through the whole system: documents/get
// then lists them, and a verified add finds the document it created.
func TestAddsCreateTheirOrganizationAndDocument(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	docs := func(org string) []string {
		t.Helper()
		r := s.call("/v2/organizations/documents/get", map[string]any{"organizationId": org})
		var ids []string
		list, _ := r.Data().([]any)
		for _, d := range list {
			m, _ := d.(map[string]any)
			ids = append(ids, m["id"].(string))
		}
		slices.Sort(ids)
		return ids
	}
	s.fails("/v2/commentannotations/add", map[string]any{"organizationId": "new-org", "documentId": "d1", "createDocument": true,
		"commentAnnotations": []any{e3AnnotationIn("a0", "", "ann", "too early")}}, "NOT_FOUND", 404)
	s.ok("/v2/commentannotations/add", map[string]any{"organizationId": "new-org", "documentId": "d1",
		"createOrganization": true, "createDocument": true, "verifyUserPermissions": false,
		"commentAnnotations": []any{e3AnnotationIn("a1", "", "ann", "first")}})
	n := e3NotificationIn("new-org", "d2", "n1", "ann", "bob")
	n["createDocument"] = true
	s.ok("/v2/notifications/add", n)
	if got := docs("new-org"); !slices.Equal(got, []string{"d1", "d2"}) {
		t.Fatalf("documents of new-org: %v, want d1 d2", got)
	}
	if got := s.e3DocumentAnnotations(s.ws, "new-org", "d1"); !slices.Equal(got, []string{"a1"}) {
		t.Fatalf("annotations of d1: %v", got)
	}
}
