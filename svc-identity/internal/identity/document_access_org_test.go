package identity_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-identity/internal/identity"
	"github.com/opencollab/backend/svc-identity/internal/store"
)

func TestOrganizationUsersWithDocumentAccessDecidesEachMember(t *testing.T) {
	svc, _, clk := newService(t)
	ctx := t.Context()
	addResources(t, svc, "o1", []string{"f1"}, []string{"open", "other"})
	grant := accessFixture(t, svc, clk)
	grant("elsewhere", identity.Grant{Type: identity.ResourceDocument, ID: "other", OrganizationID: "o1"})
	// Users of another organization or workspace are never listed.
	addResources(t, svc, "o2", nil, []string{"secret"})
	grant("stranger", identity.Grant{Type: identity.ResourceOrganization, ID: "o2"},
		identity.Grant{Type: identity.ResourceDocument, ID: "secret", OrganizationID: "o2"})

	members := []string{"elsewhere", "guest", "invited", "member"}
	tests := []struct {
		doc  string
		want []string
	}{
		{"open", []string{"member"}},             // organizationPrivate: the organization's members
		{"secret", []string{"guest", "invited"}}, // restricted: its own grants only
		{"pub", members},                         // public: every user of the organization, and only those
	}
	for _, tt := range tests {
		got, err := svc.OrganizationUsersWithDocumentAccess(ctx, "ws1", "o1", tt.doc)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.UserIDs, tt.want) || !got.DocumentFound {
			t.Errorf("%s: %+v, want %v (found)", tt.doc, got, tt.want)
		}
		// The same decision as the named-users check, user by user.
		named := usersWithAccess(t, svc, "o1", tt.doc, members...)
		if !slices.Equal(named.UserIDs, got.UserIDs) {
			t.Errorf("%s: every user %v, the named users %v", tt.doc, got.UserIDs, named.UserIDs)
		}
	}
	// Decided as of the call: an expired grant gives no access.
	clk.t = clk.t.Add(2 * time.Hour)
	if got, _ := svc.OrganizationUsersWithDocumentAccess(ctx, "ws1", "o1", "secret"); !slices.Equal(got.UserIDs, []string{"invited"}) {
		t.Errorf("after guest's grant expired: %v, want [invited]", got.UserIDs)
	}

	// A document (or organization) that does not exist: nobody, not found,
	// whether or not the organization has users.
	for _, c := range []struct{ org, doc string }{{"o1", "ghost"}, {"o9", "open"}} {
		got, err := svc.OrganizationUsersWithDocumentAccess(ctx, "ws1", c.org, c.doc)
		if err != nil || got.UserIDs == nil || len(got.UserIDs) != 0 || got.DocumentFound {
			t.Errorf("document %s of %s: %+v, %v; want nobody, not found", c.doc, c.org, got, err)
		}
	}
	// An existing document in an organization without users: found, nobody.
	addResources(t, svc, "empty", nil, []string{"d1"})
	if got, err := svc.OrganizationUsersWithDocumentAccess(ctx, "ws1", "empty", "d1"); err != nil || len(got.UserIDs) != 0 || !got.DocumentFound {
		t.Errorf("organization without users: %+v, %v; want nobody, found", got, err)
	}
}

func TestOrganizationUsersWithDocumentAccessIsBounded(t *testing.T) {
	svc, st, _ := newService(t)
	ctx := t.Context()
	addResources(t, svc, "o1", nil, []string{"open"})
	restricted := identity.Restricted
	if _, err := svc.AddDocuments(ctx, "ws1", identity.AddDocumentsRequest{OrganizationID: "o1", Documents: []identity.DocumentInput{
		{ID: "secret", AccessType: &restricted},
	}}); err != nil {
		t.Fatal(err)
	}
	addMembers(t, st, "o1", identity.MaxUsersWithAccess)
	if err := svc.AddPermissions(ctx, "ws1", "invited", []identity.Grant{{Type: identity.ResourceDocument, ID: "secret", OrganizationID: "o1"}}); err != nil {
		t.Fatal(err)
	}
	// Exactly the bound with access: listed.
	got, err := svc.OrganizationUsersWithDocumentAccess(ctx, "ws1", "o1", "open")
	if err != nil || len(got.UserIDs) != identity.MaxUsersWithAccess {
		t.Fatalf("%d members: %d listed, %v", identity.MaxUsersWithAccess, len(got.UserIDs), err)
	}
	// One more: refused, saying why.
	addMembers(t, st, "o1", identity.MaxUsersWithAccess+1)
	_, err = svc.OrganizationUsersWithDocumentAccess(ctx, "ws1", "o1", "open")
	if !api.IsStatus(err, api.FailedPrecondition) || !strings.Contains(err.Error(), "more than 1000 users") {
		t.Fatalf("%d with access: %v, want FAILED_PRECONDITION naming the bound", identity.MaxUsersWithAccess+1, err)
	}
	// Many users but few with access: the restricted document is answered.
	if got, err := svc.OrganizationUsersWithDocumentAccess(ctx, "ws1", "o1", "secret"); err != nil || !slices.Equal(got.UserIDs, []string{"invited"}) {
		t.Fatalf("secret: %+v, %v; want [invited]", got, err)
	}
	// More users than it checks: refused, whoever has access.
	addMembers(t, st, "o1", identity.MaxOrganizationUsersChecked+1)
	_, err = svc.OrganizationUsersWithDocumentAccess(ctx, "ws1", "o1", "secret")
	if !api.IsStatus(err, api.FailedPrecondition) || !strings.Contains(err.Error(), "more than 10000 users") {
		t.Fatalf("%d users: %v, want FAILED_PRECONDITION naming the bound", identity.MaxOrganizationUsersChecked+1, err)
	}
}

// addMembers makes u0000… organization members of org until it has n
// such users (straight into the store: users/add takes 1,000 a call).
func addMembers(t *testing.T, st *store.Store, org string, n int) {
	t.Helper()
	ms := make([]identity.Membership, n)
	for i := range ms {
		ms[i] = identity.Membership{MembershipKey: identity.MembershipKey{
			OrganizationID: org, Type: identity.ResourceOrganization, ResourceID: org, UserID: fmt.Sprintf("u%05d", i),
		}}
	}
	for start := 0; start < n; start += 1000 {
		if err := st.SaveMemberships(t.Context(), "ws1", ms[start:min(start+1000, n)]); err != nil {
			t.Fatal(err)
		}
	}
}
