package identity_test

import (
	"testing"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// EnsureScope creates a missing organization and document as the flags
// ask, leaves existing ones as they are, and refuses a document in a
// missing organization without createOrganization, writing nothing.
func TestEnsureScope(t *testing.T) {
	t.Parallel()
	svc, st, _ := newService(t)
	ctx := t.Context()
	if err := svc.EnsureScope(ctx, "ws1", "o1", "d1", false, true); !api.IsStatus(err, api.NotFound) {
		t.Fatalf("document in a missing organization: %v, want NOT_FOUND", err)
	}
	if _, err := st.GetOrganization(ctx, "ws1", "o1"); err == nil {
		t.Fatal("the refused call created the organization")
	}
	if err := svc.EnsureScope(ctx, "ws1", "o1", "d1", true, true); err != nil {
		t.Fatal(err)
	}
	if _, err := st.GetDocument(ctx, "ws1", "o1", "d1"); err != nil {
		t.Fatalf("document not created: %v", err)
	}
	// An existing document keeps what it was given.
	name := "Plan"
	if _, err := svc.AddDocuments(ctx, "ws1", identity.AddDocumentsRequest{OrganizationID: "o1", Documents: []identity.DocumentInput{{ID: "d2", Name: &name}}}); err != nil {
		t.Fatal(err)
	}
	if err := svc.EnsureScope(ctx, "ws1", "o1", "d2", false, true); err != nil {
		t.Fatal(err)
	}
	if d, err := st.GetDocument(ctx, "ws1", "o1", "d2"); err != nil || d.Name != "Plan" {
		t.Fatalf("existing document after ensure: %+v %v", d, err)
	}
	// createOrganization alone creates no document; no flag asks nothing.
	if err := svc.EnsureScope(ctx, "ws1", "o2", "d9", true, false); err != nil {
		t.Fatal(err)
	}
	if _, err := st.GetOrganization(ctx, "ws1", "o2"); err != nil {
		t.Fatalf("organization o2 not created: %v", err)
	}
	if _, err := st.GetDocument(ctx, "ws1", "o2", "d9"); err == nil {
		t.Fatal("createOrganization alone created the document")
	}
	if err := svc.EnsureScope(ctx, "ws1", "o3", "d1", false, false); err != nil {
		t.Fatalf("no flags: %v", err)
	}
}
