package identity

import "testing"

func member(t ResourceType, id string, role Role, expires *int64) Membership {
	return Membership{MembershipKey: MembershipKey{OrganizationID: "o", Type: t, ResourceID: id, UserID: "u"}, AccessRole: role, ExpiresAt: expires}
}

func ptr[T any](v T) *T { return &v }

// TestDocumentAccess covers the access rules of a document: own
// membership, organization-level (not for restricted documents or
// documents under a restricted folder), folder inheritance, public, expiry.
func TestDocumentAccess(t *testing.T) {
	folders := map[string]Folder{
		"open":   {ID: "open", Ancestors: []string{RootFolder}, AccessType: OrganizationPrivate},
		"inner":  {ID: "inner", Ancestors: []string{RootFolder, "open"}, AccessType: OrganizationPrivate},
		"locked": {ID: "locked", Ancestors: []string{RootFolder}, AccessType: Restricted},
		"deep":   {ID: "deep", Ancestors: []string{RootFolder, "locked"}, AccessType: OrganizationPrivate},
		"pub":    {ID: "pub", Ancestors: []string{RootFolder}, AccessType: Public},
	}
	orgEditor := member(ResourceOrganization, "o", RoleEditor, nil)
	for _, tc := range []struct {
		name       string
		doc        Document
		ms         []Membership
		wantRole   Role
		wantType   string
		wantDenied bool
	}{
		{"no membership", Document{ID: "d"}, nil, "", OrganizationPrivate, true},
		{"organization member", Document{ID: "d"}, []Membership{orgEditor}, RoleEditor, OrganizationPrivate, false},
		{"restricted document excludes organization members", Document{ID: "d", AccessType: Restricted}, []Membership{orgEditor}, "", Restricted, true},
		{"restricted document, own membership", Document{ID: "d", AccessType: Restricted},
			[]Membership{member(ResourceDocument, "d", RoleViewer, nil)}, RoleViewer, Restricted, false},
		{"document in restricted folder inherits restricted", Document{ID: "d", FolderID: "locked"}, []Membership{orgEditor}, "", Restricted, true},
		{"document below a restricted folder", Document{ID: "d", FolderID: "deep"}, []Membership{orgEditor}, "", OrganizationPrivate, true},
		{"membership of an ancestor folder", Document{ID: "d", FolderID: "inner"},
			[]Membership{member(ResourceFolder, "open", RoleViewer, nil)}, RoleViewer, OrganizationPrivate, false},
		{"folder membership reaches into a restricted folder", Document{ID: "d", FolderID: "deep"},
			[]Membership{member(ResourceFolder, "locked", RoleEditor, nil)}, RoleEditor, OrganizationPrivate, false},
		{"public document", Document{ID: "d", AccessType: Public}, nil, RoleViewer, Public, false},
		{"document in public folder", Document{ID: "d", FolderID: "pub"}, nil, RoleViewer, Public, false},
		{"strongest grant wins", Document{ID: "d", AccessType: Public},
			[]Membership{member(ResourceDocument, "d", RoleViewer, nil), orgEditor}, RoleEditor, Public, false},
		{"expired membership grants nothing", Document{ID: "d"},
			[]Membership{member(ResourceDocument, "d", RoleEditor, ptr(int64(99)))}, "", OrganizationPrivate, true},
		{"membership valid until now", Document{ID: "d"},
			[]Membership{member(ResourceDocument, "d", RoleEditor, ptr(int64(100)))}, RoleEditor, OrganizationPrivate, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := grantsByUser(tc.ms, 100)["u"]
			var own *Membership
			if g != nil {
				if m, ok := g.docs[tc.doc.ID]; ok {
					own = &m
				}
			}
			got := g.decide(own, documentPlacement(tc.doc, folders))
			if (got.ErrorCode == CodePermissionDenied) != tc.wantDenied || got.AccessRole != tc.wantRole || got.AccessType != tc.wantType {
				t.Fatalf("access = %+v; want role %q, type %q, denied %v", got, tc.wantRole, tc.wantType, tc.wantDenied)
			}
		})
	}
}

func TestFolderAccess(t *testing.T) {
	folders := map[string]Folder{
		"locked": {ID: "locked", Ancestors: []string{RootFolder}, AccessType: Restricted},
		"child":  {ID: "child", Ancestors: []string{RootFolder, "locked"}, AccessType: OrganizationPrivate},
	}
	orgViewer := member(ResourceOrganization, "o", RoleViewer, nil)
	g := grantsByUser([]Membership{orgViewer}, 0)["u"]
	if got := g.decide(nil, folderPlacement(folders["child"], folders)); got.ErrorCode != CodePermissionDenied {
		t.Fatalf("organization member reaches a folder under a restricted one: %+v", got)
	}
	open := Folder{ID: "open", Ancestors: []string{RootFolder}, AccessType: OrganizationPrivate}
	if got := g.decide(nil, folderPlacement(open, folders)); got.AccessRole != RoleViewer {
		t.Fatalf("organization member denied an open folder: %+v", got)
	}
}

func TestStronger(t *testing.T) {
	for _, tc := range []struct {
		a, b Membership
		want bool
	}{
		{member(ResourceDocument, "d", RoleEditor, nil), member(ResourceDocument, "d", RoleViewer, nil), true},
		{member(ResourceDocument, "d", RoleViewer, nil), member(ResourceDocument, "d", RoleEditor, nil), false},
		{member(ResourceDocument, "d", RoleEditor, nil), member(ResourceDocument, "d", RoleEditor, ptr(int64(5))), true},
		{member(ResourceDocument, "d", RoleEditor, ptr(int64(9))), member(ResourceDocument, "d", RoleEditor, ptr(int64(5))), true},
		{member(ResourceDocument, "d", RoleEditor, ptr(int64(5))), member(ResourceDocument, "d", RoleEditor, nil), false},
	} {
		if got := stronger(tc.a, tc.b); got != tc.want {
			t.Errorf("stronger(%v/%v, %v/%v) = %v", tc.a.AccessRole, tc.a.ExpiresAt, tc.b.AccessRole, tc.b.ExpiresAt, got)
		}
	}
}
