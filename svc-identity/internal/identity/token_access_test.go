package identity

import "testing"

func TestTokenMembershipsDropRevokedAndForeignGrants(t *testing.T) {
	t.Parallel()
	grants := []Grant{
		{Type: ResourceDocument, ID: "d1", OrganizationID: "o1", AccessRole: RoleViewer},
		{Type: ResourceDocument, ID: "d2"}, // no organization: counts for o1
		{Type: ResourceFolder, ID: "f1", OrganizationID: "o1"},
		{Type: ResourceOrganization, ID: "o1"},
		{Type: ResourceOrganization, ID: "o2"},                   // another organization
		{Type: ResourceDocument, ID: "d3", OrganizationID: "o2"}, // likewise
	}
	tests := []struct {
		name string
		revs []Revocation
		want []string // resource ids kept
	}{
		{"no revocation", nil, []string{"d1", "d2", "f1", "o1"}},
		{"document removed", []Revocation{{Type: ResourceDocument, ResourceID: "d1", OrganizationID: "o1"}}, []string{"d2", "f1", "o1"}},
		{"folder removed in every organization", []Revocation{{Type: ResourceFolder, ResourceID: "f1"}}, []string{"d1", "d2", "o1"}},
		{"organization grant removed", []Revocation{{Type: ResourceOrganization, ResourceID: "o1", OrganizationID: "o1"}}, []string{"d1", "d2", "f1"}},
		{"user deleted from the organization", []Revocation{{Type: RevokedMembership, ResourceID: "o1", OrganizationID: "o1"}}, nil},
		{"removal in another organization", []Revocation{{Type: ResourceDocument, ResourceID: "d1", OrganizationID: "o2"}}, []string{"d1", "d2", "f1", "o1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tokenMemberships(TokenAccess{UserID: "u", Resources: grants}, "o1", tt.revs)
			var ids []string
			for _, m := range got {
				ids = append(ids, m.ResourceID)
				if m.OrganizationID != "o1" {
					t.Errorf("%s kept with organization %q", m.ResourceID, m.OrganizationID)
				}
			}
			if len(ids) != len(tt.want) {
				t.Fatalf("kept %v, want %v", ids, tt.want)
			}
			for i := range ids {
				if ids[i] != tt.want[i] {
					t.Fatalf("kept %v, want %v", ids, tt.want)
				}
			}
		})
	}
}

func TestTokenGrantsDecideLikeMemberships(t *testing.T) {
	t.Parallel()
	ms := tokenMemberships(TokenAccess{UserID: "u", Resources: []Grant{
		{Type: ResourceOrganization, ID: "o1", AccessRole: RoleViewer},
		{Type: ResourceFolder, ID: "f1", OrganizationID: "o1", AccessRole: RoleEditor},
	}}, "o1", nil)
	g := grantsByUser(ms, 0)["u"]
	inFolder := placement{accessType: OrganizationPrivate, folders: []string{"f1"}}
	if got := g.decide(nil, inFolder); got.AccessRole != RoleEditor {
		t.Errorf("document in the granted folder: %+v, want editor", got)
	}
	if got := g.decide(nil, placement{accessType: OrganizationPrivate}); got.AccessRole != RoleViewer {
		t.Errorf("document outside the folder: %+v, want viewer from the organization", got)
	}
	if got := g.decide(nil, placement{accessType: Restricted}); got.AccessRole != "" {
		t.Errorf("restricted document: %+v, want no access from an organization grant", got)
	}
}
