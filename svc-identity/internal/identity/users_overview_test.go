package identity_test

import (
	"testing"

	"github.com/opencollab/backend/svc-identity/internal/identity"
)

func TestUserOverviewCountsActiveMemberships(t *testing.T) {
	svc, st, c := newService(t)
	ctx := t.Context()
	name := "Ann"
	if err := st.SaveUsers(ctx, "ws1", []identity.Profile{{UserID: "u1", Name: &name}}, 1); err != nil {
		t.Fatal(err)
	}
	past, future := c.t.UnixMilli()-1, c.t.UnixMilli()+3600_000
	for _, m := range []identity.Membership{
		{MembershipKey: identity.MembershipKey{OrganizationID: "o1", Type: identity.ResourceOrganization, ResourceID: "o1", UserID: "u1"}, AccessRole: identity.RoleViewer},
		{MembershipKey: identity.MembershipKey{OrganizationID: "o1", Type: identity.ResourceFolder, ResourceID: "f1", UserID: "u1"}},
		{MembershipKey: identity.MembershipKey{OrganizationID: "o1", Type: identity.ResourceDocument, ResourceID: "d1", UserID: "u1"}, ExpiresAt: &future},
		{MembershipKey: identity.MembershipKey{OrganizationID: "o1", Type: identity.ResourceDocument, ResourceID: "d2", UserID: "u1"}, ExpiresAt: &past},
		{MembershipKey: identity.MembershipKey{OrganizationID: "o1", Type: identity.ResourceDocument, ResourceID: "d3", UserID: "u2"}},
		{MembershipKey: identity.MembershipKey{OrganizationID: "o2", Type: identity.ResourceDocument, ResourceID: "d1", UserID: "u1"}},
		{MembershipKey: identity.MembershipKey{OrganizationID: "o3", Type: identity.ResourceOrganization, ResourceID: "o3", UserID: "u1"}, ExpiresAt: &past},
	} {
		if err := st.SaveMemberships(ctx, "ws1", []identity.Membership{m}); err != nil {
			t.Fatal(err)
		}
	}
	viewer := identity.RoleViewer
	for _, tc := range []struct {
		name, ws, org, user string
		want                *identity.UserOverview
	}{
		{"member", "ws1", "o1", "u1", &identity.UserOverview{UserID: "u1", Name: "Ann",
			Organization: identity.MembershipOverview{OrganizationID: "o1", AccessRole: &viewer, Folders: 1, Documents: 1}}},
		{"expired organization grant", "ws1", "o3", "u1", &identity.UserOverview{UserID: "u1", Name: "Ann",
			Organization: identity.MembershipOverview{OrganizationID: "o3"}}},
		{"memberships without a profile", "ws1", "o1", "u2", &identity.UserOverview{UserID: "u2",
			Organization: identity.MembershipOverview{OrganizationID: "o1", Documents: 1}}},
		{"unknown user", "ws1", "o1", "nobody", nil},
		{"other workspace", "ws2", "o1", "u1", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := svc.UserOverview(ctx, tc.ws, tc.org, tc.user)
			if err != nil {
				t.Fatal(err)
			}
			if (got == nil) != (tc.want == nil) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
			if got == nil {
				return
			}
			gotRole, wantRole := got.Organization.AccessRole, tc.want.Organization.AccessRole
			if (gotRole == nil) != (wantRole == nil) || (gotRole != nil && *gotRole != *wantRole) {
				t.Fatalf("accessRole = %v, want %v", gotRole, wantRole)
			}
			got.Organization.AccessRole, tc.want.Organization.AccessRole = nil, nil
			if *got != *tc.want {
				t.Fatalf("got %+v, want %+v", *got, *tc.want)
			}
		})
	}
}
