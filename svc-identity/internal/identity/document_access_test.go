package identity_test

import (
	"slices"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// usersWithAccess asks for doc of o1 and fails the test on an error.
func usersWithAccess(t *testing.T, svc *identity.Service, org, doc string, users ...string) identity.DocumentAccess {
	t.Helper()
	got, err := svc.UsersWithDocumentAccess(t.Context(), "ws1", org, doc, users)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestUsersWithDocumentAccessFollowsThePermissionRules(t *testing.T) {
	svc, _, clk := newService(t)
	ctx := t.Context()
	addResources(t, svc, "o1", nil, []string{"open"})
	off := true
	accessFixture(t, svc, clk, identity.DocumentInput{ID: "off", Disabled: &off})

	everyone := []string{"outsider", "member", "invited", "guest"}
	tests := []struct {
		doc  string
		want []string
	}{
		{"open", []string{"member"}},                                // organizationPrivate: the organization's members
		{"secret", []string{"invited", "guest"}},                    // restricted: its own grants only
		{"pub", []string{"outsider", "member", "invited", "guest"}}, // public: viewer for anyone
		{"off", []string{}},                                         // disabled: nobody
	}
	for _, tt := range tests {
		got := usersWithAccess(t, svc, "o1", tt.doc, everyone...)
		if !slices.Equal(got.UserIDs, tt.want) || !got.DocumentFound {
			t.Errorf("%s: %+v, want %v (found)", tt.doc, got, tt.want)
		}
		// The same decision as permissions/get's, user by user.
		perms, err := svc.GetPermissions(ctx, "ws1", identity.PermissionsQuery{OrganizationID: "o1", UserIDs: everyone, DocumentIDs: []string{tt.doc}})
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range everyone {
			if has := perms[u].Documents[tt.doc].AccessRole != ""; has != slices.Contains(got.UserIDs, u) {
				t.Errorf("%s: %s has access %v in permissions/get, the access check disagrees", tt.doc, u, has)
			}
		}
	}

	// An expired grant gives no access.
	clk.t = clk.t.Add(2 * time.Hour)
	if got := usersWithAccess(t, svc, "o1", "secret", everyone...); !slices.Equal(got.UserIDs, []string{"invited"}) {
		t.Errorf("after guest's grant expired: %v, want [invited]", got.UserIDs)
	}

	// Repeats and blanks are dropped; the order asked is kept.
	if got := usersWithAccess(t, svc, "o1", "pub", "guest", "", "member", "guest"); !slices.Equal(got.UserIDs, []string{"guest", "member"}) {
		t.Errorf("repeats: %v, want [guest member]", got.UserIDs)
	}
}

func TestUsersWithDocumentAccessOfMissingDocuments(t *testing.T) {
	svc, _, _ := newService(t)
	addResources(t, svc, "o1", nil, []string{"d1"})
	if err := svc.AddPermissions(t.Context(), "ws1", "member", []identity.Grant{{Type: identity.ResourceOrganization, ID: "o1"}}); err != nil {
		t.Fatal(err)
	}
	if got := usersWithAccess(t, svc, "o1", "d1", "member"); !slices.Equal(got.UserIDs, []string{"member"}) || !got.DocumentFound {
		t.Fatalf("existing document: %+v", got)
	}
	for _, c := range []struct{ org, doc string }{{"o1", "ghost"}, {"o9", "d1"}} {
		got := usersWithAccess(t, svc, c.org, c.doc, "member")
		if len(got.UserIDs) != 0 || got.UserIDs == nil || got.DocumentFound {
			t.Errorf("document %s of %s: %+v, want nobody and not found", c.doc, c.org, got)
		}
	}
	// Another workspace knows neither the organization nor the document.
	got, err := svc.UsersWithDocumentAccess(t.Context(), "ws2", "o1", "d1", []string{"member"})
	if err != nil || len(got.UserIDs) != 0 || got.DocumentFound {
		t.Errorf("other workspace: %+v, %v", got, err)
	}
	if _, err := svc.UsersWithDocumentAccess(t.Context(), "ws1", "o1", "d1", []string{""}); !api.IsStatus(err, api.InvalidArgument) {
		t.Errorf("no user: err = %v, want INVALID_ARGUMENT", err)
	}
}

// granter gives users grants in workspace ws1, failing t on an error.
func granter(t *testing.T, svc *identity.Service) func(user string, gs ...identity.Grant) {
	return func(user string, gs ...identity.Grant) {
		t.Helper()
		if err := svc.AddPermissions(t.Context(), "ws1", user, gs); err != nil {
			t.Fatal(err)
		}
	}
}

// accessFixture adds to organization o1 of ws1 the documents "secret"
// (restricted) and "pub" (public), and extra, and grants "member" the
// organization, "invited" secret and "guest" secret for an hour. It
// returns the granter for more.
func accessFixture(t *testing.T, svc *identity.Service, clk *clock, extra ...identity.DocumentInput) func(user string, gs ...identity.Grant) {
	t.Helper()
	restricted, public := identity.Restricted, identity.Public
	docs := append([]identity.DocumentInput{{ID: "secret", AccessType: &restricted}, {ID: "pub", AccessType: &public}}, extra...)
	if _, err := svc.AddDocuments(t.Context(), "ws1", identity.AddDocumentsRequest{OrganizationID: "o1", Documents: docs}); err != nil {
		t.Fatal(err)
	}
	soon := clk.t.Add(time.Hour).UnixMilli()
	grant := granter(t, svc)
	grant("member", identity.Grant{Type: identity.ResourceOrganization, ID: "o1", AccessRole: identity.RoleViewer})
	grant("invited", identity.Grant{Type: identity.ResourceDocument, ID: "secret", OrganizationID: "o1"})
	grant("guest", identity.Grant{Type: identity.ResourceDocument, ID: "secret", OrganizationID: "o1", ExpiresAt: &soon})
	return grant
}
