package store_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/opencollab/backend/svc-identity/internal/identity"
)

func docMember(doc, user string) identity.Membership {
	return identity.Membership{MembershipKey: identity.MembershipKey{
		OrganizationID: "o1", Type: identity.ResourceDocument, ResourceID: doc, UserID: user,
	}}
}

func TestSaveMembershipRoleAndExpiry(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	m := docMember("d1", "u1")
	mustSave(t, s, "ws1", m)
	got, err := s.GetMembership(ctx, "ws1", m.MembershipKey)
	if err != nil || got.AccessRole != identity.RoleEditor || got.ExpiresAt != nil {
		t.Fatalf("new membership = %+v, %v; want editor without expiry", got, err)
	}

	exp := int64(4102444800)
	m.AccessRole, m.ExpiresAt = identity.RoleViewer, &exp
	mustSave(t, s, "ws1", m)
	got, _ = s.GetMembership(ctx, "ws1", m.MembershipKey)
	if got.AccessRole != identity.RoleViewer || got.ExpiresAt == nil || *got.ExpiresAt != exp {
		t.Fatalf("after grant = %+v; want viewer until %d", got, exp)
	}

	// No role keeps the stored one; no expiry makes it permanent.
	m.AccessRole, m.ExpiresAt = "", nil
	mustSave(t, s, "ws1", m)
	got, _ = s.GetMembership(ctx, "ws1", m.MembershipKey)
	if got.AccessRole != identity.RoleViewer || got.ExpiresAt != nil {
		t.Fatalf("after re-add = %+v; want viewer, permanent", got)
	}

	if _, err := s.GetMembership(ctx, "ws2", m.MembershipKey); !errors.Is(err, identity.ErrNotFound) {
		t.Fatalf("other workspace sees the membership: %v", err)
	}
}

// TestListMembersPagesWithoutGapsOrDuplicates walks every document member
// of an organization two at a time (keyset on documentId, userId).
func TestListMembersPagesWithoutGapsOrDuplicates(t *testing.T) {
	s := newStore(t)
	var want []string
	for _, doc := range []string{"d1", "d2", "d3"} {
		for _, user := range []string{"u1", "u2", "u3"} {
			mustSave(t, s, "ws1", docMember(doc, user))
			want = append(want, doc+"/"+user)
		}
	}
	mustSave(t, s, "ws2", docMember("d1", "intruder"))
	past := int64(1000)
	expired := docMember("d2", "u0")
	expired.ExpiresAt = &past
	mustSave(t, s, "ws1", expired)

	var got []string
	q := identity.MemberQuery{OrganizationID: "o1", Type: identity.ResourceDocument, ActiveAt: 2000, Limit: 2}
	for pages := 0; ; pages++ {
		if pages > 10 {
			t.Fatal("paging does not end")
		}
		ms, err := s.ListMembers(t.Context(), "ws1", q)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			got = append(got, m.ResourceID+"/"+m.UserID)
		}
		if len(ms) < q.Limit {
			break
		}
		last := ms[len(ms)-1]
		q.After = identity.MemberCursor{ResourceID: last.ResourceID, UserID: last.UserID}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("pages = %v\nwant    %v", got, want)
	}
}

func TestListMembersOfOneResourceFiltersUsers(t *testing.T) {
	s := newStore(t)
	for i := range 5 {
		mustSave(t, s, "ws1", docMember("d1", fmt.Sprintf("u%d", i)))
	}
	q := identity.MemberQuery{
		OrganizationID: "o1", Type: identity.ResourceDocument, ResourceID: "d1",
		UserIDs: []string{"u1", "u3", "u4", "nobody"}, After: identity.MemberCursor{ResourceID: "d1", UserID: "u1"},
		Limit: 10,
	}
	ms, err := s.ListMembers(t.Context(), "ws1", q)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, m.UserID)
	}
	if !slices.Equal(got, []string{"u3", "u4"}) {
		t.Fatalf("users = %v, want [u3 u4]", got)
	}
}

func TestRemoveFromOrganization(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	org := identity.Membership{MembershipKey: identity.MembershipKey{
		OrganizationID: "o1", Type: identity.ResourceOrganization, ResourceID: "o1", UserID: "u1",
	}}
	mustSave(t, s, "ws1", org, docMember("d1", "u1"), docMember("d1", "u2"))
	if _, err := s.SaveGroups(ctx, "ws1", []identity.Group{{OrganizationID: "o1", ID: "g1"}}, 1); err != nil {
		t.Fatal(err)
	}
	if err := s.AddGroupMembers(ctx, "ws1", "o1", "g1", []string{"u1"}, 1); err != nil {
		t.Fatal(err)
	}
	found, err := s.RemoveFromOrganization(ctx, "ws1", "o1", "u1")
	if err != nil || !found {
		t.Fatalf("RemoveFromOrganization = %v, %v", found, err)
	}
	if ok, _ := s.IsOrganizationMember(ctx, "ws1", "o1", "u1"); ok {
		t.Fatal("u1 still has memberships")
	}
	if ok, _ := s.IsOrganizationMember(ctx, "ws1", "o1", "u2"); !ok {
		t.Fatal("u2 lost its membership")
	}
	if members, _ := s.ListGroupMembers(ctx, "ws1", "o1", []string{"g1"}); len(members) != 0 {
		t.Fatalf("group still has %v", members)
	}
	if found, _ := s.RemoveFromOrganization(ctx, "ws1", "o1", "u1"); found {
		t.Fatal("second removal reports something removed")
	}
}

func TestUserMembershipsSelectsTheAskedResources(t *testing.T) {
	s := newStore(t)
	org := identity.Membership{MembershipKey: identity.MembershipKey{
		OrganizationID: "o1", Type: identity.ResourceOrganization, ResourceID: "o1", UserID: "u1",
	}}
	mustSave(t, s, "ws1", org, docMember("d1", "u1"), docMember("d2", "u1"), docMember("d1", "u2"))
	ms, err := s.UserMemberships(t.Context(), "ws1", identity.GrantQuery{OrganizationID: "o1", UserIDs: []string{"u1"}, DocumentIDs: []string{"d1"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, string(m.Type)+"/"+m.ResourceID+"/"+m.UserID)
	}
	slices.Sort(got)
	if want := []string{"document/d1/u1", "organization/o1/u1"}; !slices.Equal(got, want) {
		t.Fatalf("memberships = %v, want %v", got, want)
	}
}
