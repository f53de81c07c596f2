package identity_test

import (
	"slices"
	"testing"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// A folder lists its own documents, sorted, not its subfolders' nor the
// organization's others; an unknown folder, or one of another workspace,
// is not found and holds none; more than the bound is FAILED_PRECONDITION.
// Not parallel: it lowers a package bound.
func TestDocumentsInFolder(t *testing.T) {
	svc, _, _ := newService(t)
	addTree(t, svc) // a → b → c, and x
	add := func(folder string, ids ...string) {
		t.Helper()
		req := identity.AddDocumentsRequest{OrganizationID: "o1", FolderID: folder}
		for _, id := range ids {
			req.Documents = append(req.Documents, identity.DocumentInput{ID: id})
		}
		if _, err := svc.AddDocuments(t.Context(), "ws1", req); err != nil {
			t.Fatal(err)
		}
	}
	add("b", "d3", "d1", "d2")
	add("c", "deep")
	add("", "loose")

	got, err := svc.DocumentsInFolder(t.Context(), "ws1", "o1", "b")
	if err != nil || !got.FolderFound || !slices.Equal(got.DocumentIDs, []string{"d1", "d2", "d3"}) {
		t.Fatalf("folder b: %+v %v, want d1 d2 d3", got, err)
	}
	for _, q := range [][3]string{{"ws1", "o1", "ghost"}, {"ws2", "o1", "b"}, {"ws1", "o2", "b"}} {
		got, err := svc.DocumentsInFolder(t.Context(), q[0], q[1], q[2])
		if err != nil || got.FolderFound || got.DocumentIDs == nil || len(got.DocumentIDs) != 0 {
			t.Errorf("%v: %+v %v, want not found and an empty list", q, got, err)
		}
	}
	if got, err := svc.DocumentsInFolder(t.Context(), "ws1", "o1", "x"); err != nil || !got.FolderFound || len(got.DocumentIDs) != 0 {
		t.Errorf("empty folder x: %+v %v", got, err)
	}

	defer identity.SetMaxFolderDocuments(2)()
	if _, err := svc.DocumentsInFolder(t.Context(), "ws1", "o1", "b"); !api.IsStatus(err, api.FailedPrecondition) {
		t.Fatalf("three documents over a bound of two: %v, want FAILED_PRECONDITION", err)
	}
	if got, err := svc.DocumentsInFolder(t.Context(), "ws1", "o1", "c"); err != nil || len(got.DocumentIDs) != 1 {
		t.Fatalf("one document under the bound: %+v %v", got, err)
	}
}
