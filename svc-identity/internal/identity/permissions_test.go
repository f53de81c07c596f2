package identity_test

import (
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// addResources creates organization orgID with its documents and
// top-level folders through the documented operations: grants no longer
// create them.
func addResources(t *testing.T, svc *identity.Service, orgID string, folders, docs []string) {
	t.Helper()
	var fs []identity.FolderInput
	for _, id := range folders {
		fs = append(fs, identity.FolderInput{ID: id})
	}
	if _, err := svc.AddFolders(t.Context(), "ws1", identity.AddFoldersRequest{OrganizationID: orgID, CreateOrganization: true, Folders: fs}); err != nil {
		t.Fatal(err)
	}
	var ds []identity.DocumentInput
	for _, id := range docs {
		ds = append(ds, identity.DocumentInput{ID: id})
	}
	if _, err := svc.AddDocuments(t.Context(), "ws1", identity.AddDocumentsRequest{OrganizationID: orgID, Documents: ds}); err != nil {
		t.Fatal(err)
	}
}

func TestGrantsOfMissingFoldersOrDocumentsAreRefusedWithNothingWritten(t *testing.T) {
	svc, st, _ := newService(t)
	ctx := t.Context()
	addResources(t, svc, "o1", []string{"f1"}, []string{"d1"})
	for name, missing := range map[string]identity.Grant{
		"document":              {Type: identity.ResourceDocument, ID: "ghost", OrganizationID: "o1"},
		"folder":                {Type: identity.ResourceFolder, ID: "ghost", OrganizationID: "o1"},
		"document of other org": {Type: identity.ResourceDocument, ID: "d1", OrganizationID: "o2"},
	} {
		grants := []identity.Grant{
			{Type: identity.ResourceOrganization, ID: "o3"},
			{Type: identity.ResourceDocument, ID: "d1", OrganizationID: "o1"},
			missing,
		}
		err := svc.AddPermissions(ctx, "ws1", "u1", grants)
		if apiErr, ok := api.AsError(err); !ok || apiErr.Status != api.NotFound {
			t.Fatalf("%s: err = %v, want NOT_FOUND", name, err)
		}
	}
	if _, err := st.GetOrganization(ctx, "ws1", "o3"); err == nil {
		t.Error("a refused request created organization o3")
	}
	if _, err := st.GetDocument(ctx, "ws1", "o1", "ghost"); err == nil {
		t.Error("a refused request created document ghost")
	}
	if _, err := st.GetFolder(ctx, "ws1", "o1", "ghost"); err == nil {
		t.Error("a refused request created folder ghost")
	}
	got, err := svc.GetPermissions(ctx, "ws1", identity.PermissionsQuery{OrganizationID: "o1", UserIDs: []string{"u1"}, DocumentIDs: []string{"d1"}})
	if err != nil {
		t.Fatal(err)
	}
	if r := got["u1"].Documents["d1"]; r.ErrorCode != identity.CodePermissionDenied {
		t.Errorf("a refused request granted d1: %+v", r)
	}
}

func TestGrantOfAMissingOrganizationCreatesIt(t *testing.T) {
	svc, st, _ := newService(t)
	if err := svc.AddPermissions(t.Context(), "ws1", "u1", []identity.Grant{{Type: identity.ResourceOrganization, ID: "o9"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.GetOrganization(t.Context(), "ws1", "o9"); err != nil {
		t.Fatalf("organization grant did not create the organization (as users/add does): %v", err)
	}
}

func TestGrantsDecideAccess(t *testing.T) {
	svc, _, clk := newService(t)
	ctx := t.Context()
	soon := clk.t.Add(time.Hour).UnixMilli()
	addResources(t, svc, "o1", []string{"f1"}, []string{"d1"})
	err := svc.AddPermissions(ctx, "ws1", "u1", []identity.Grant{
		{Type: identity.ResourceOrganization, ID: "o1", AccessRole: identity.RoleViewer},
		{Type: identity.ResourceDocument, ID: "d1", OrganizationID: "o1", AccessRole: identity.RoleEditor, ExpiresAt: &soon},
		{Type: identity.ResourceFolder, ID: "f1", OrganizationID: "o1"},
	})
	if err != nil {
		t.Fatal(err)
	}
	restricted := identity.Restricted
	if _, err := svc.AddDocuments(ctx, "ws1", identity.AddDocumentsRequest{
		OrganizationID: "o1", Documents: []identity.DocumentInput{{ID: "secret", AccessType: &restricted}, {ID: "open"}},
	}); err != nil {
		t.Fatal(err)
	}

	q := identity.PermissionsQuery{OrganizationID: "o1", UserIDs: []string{"u1", "u2"}, FolderIDs: []string{"f1"}, DocumentIDs: []string{"d1", "secret", "open"}}
	got, err := svc.GetPermissions(ctx, "ws1", q)
	if err != nil {
		t.Fatal(err)
	}
	u1 := got["u1"]
	if r := u1.Organization["o1"]; r.AccessRole != identity.RoleViewer {
		t.Errorf("u1 organization = %+v", r)
	}
	if r := u1.Documents["d1"]; r.AccessRole != identity.RoleEditor || r.ExpiresAt == nil || *r.ExpiresAt != soon {
		t.Errorf("u1 d1 = %+v, want editor until %d", r, soon)
	}
	if r := u1.Documents["open"]; r.AccessRole != identity.RoleViewer {
		t.Errorf("u1 open (through the organization) = %+v", r)
	}
	if r := u1.Documents["secret"]; r.ErrorCode != identity.CodePermissionDenied || r.AccessType != identity.Restricted {
		t.Errorf("u1 secret (restricted) = %+v, want denied", r)
	}
	if r := u1.Folders["f1"]; r.AccessRole != identity.RoleEditor {
		t.Errorf("u1 f1 = %+v, want editor (the default role)", r)
	}
	if r := got["u2"].Documents["open"]; r.ErrorCode != identity.CodePermissionDenied {
		t.Errorf("u2 (no membership) open = %+v, want denied", r)
	}

	clk.t = clk.t.Add(2 * time.Hour)
	got, _ = svc.GetPermissions(ctx, "ws1", q)
	if r := got["u1"].Documents["d1"]; r.AccessRole != identity.RoleViewer {
		t.Errorf("after expiry, d1 = %+v; want viewer through the organization only", r)
	}
}

func TestMissingResourceIsNotFoundWithDetails(t *testing.T) {
	svc, _, _ := newService(t)
	ctx := t.Context()
	addResources(t, svc, "o1", nil, []string{"d1"})
	if err := svc.AddPermissions(ctx, "ws1", "u1", []identity.Grant{{Type: identity.ResourceDocument, ID: "d1", OrganizationID: "o1"}}); err != nil {
		t.Fatal(err)
	}
	q := identity.PermissionsQuery{OrganizationID: "o1", UserIDs: []string{"u1"}, DocumentIDs: []string{"d1", "ghost"}}
	_, err := svc.GetPermissions(ctx, "ws1", q)
	apiErr, ok := api.AsError(err)
	if !ok || apiErr.Status != api.NotFound {
		t.Fatalf("err = %v, want NOT_FOUND", err)
	}
	details, _ := apiErr.Details.(map[string]identity.UserPermissions)
	if r := details["u1"].Documents["ghost"]; r.ErrorCode != identity.CodeDoesNotExist {
		t.Fatalf("details ghost = %+v", r)
	}
	if r := details["u1"].Documents["d1"]; r.AccessRole != identity.RoleEditor {
		t.Fatalf("details d1 = %+v", r)
	}
	q.SkipExistenceCheck = true
	if _, err := svc.GetPermissions(ctx, "ws1", q); err != nil {
		t.Fatalf("with skipResourceExistenceValidation: %v", err)
	}
}

func TestRemovingTheOrganizationGrantKeepsDocumentGrants(t *testing.T) {
	svc, _, _ := newService(t)
	ctx := t.Context()
	grants := []identity.Grant{
		{Type: identity.ResourceOrganization, ID: "o1"},
		{Type: identity.ResourceDocument, ID: "d1", OrganizationID: "o1"},
		{Type: identity.ResourceDocument, ID: "d2", OrganizationID: "o1"},
	}
	addResources(t, svc, "o1", nil, []string{"d1", "d2"})
	if err := svc.AddPermissions(ctx, "ws1", "u1", grants); err != nil {
		t.Fatal(err)
	}
	err := svc.RemovePermissions(ctx, "ws1", "u1", []identity.ResourceRef{
		{Type: identity.ResourceOrganization, ID: "o1"},
		{Type: identity.ResourceDocument, ID: "d2", OrganizationID: "o1"},
	})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := svc.GetPermissions(ctx, "ws1", identity.PermissionsQuery{OrganizationID: "o1", UserIDs: []string{"u1"}, DocumentIDs: []string{"d1", "d2"}})
	u1 := got["u1"]
	if u1.Organization["o1"].ErrorCode != identity.CodePermissionDenied {
		t.Errorf("organization still granted: %+v", u1.Organization["o1"])
	}
	if u1.Documents["d1"].AccessRole != identity.RoleEditor {
		t.Errorf("d1 lost: %+v", u1.Documents["d1"])
	}
	if u1.Documents["d2"].ErrorCode != identity.CodePermissionDenied {
		t.Errorf("d2 still granted: %+v", u1.Documents["d2"])
	}
}
