package identity_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// removingStore answers the membership deletes of users/delete as if every
// user listed were a member, counting the calls; any other store method
// panics (the embedded nil interface), so the test also proves users/delete
// uses nothing else.
type removingStore struct {
	identity.Store
	deletes int
}

func (r *removingStore) RemoveUsersFromOrganization(_ context.Context, _, _ string, userIDs []string) ([]string, error) {
	r.deletes++
	return userIDs, nil
}

func (r *removingStore) DeleteMembershipsAt(_ context.Context, _ string, _ identity.MembershipKey, userIDs []string) ([]string, error) {
	r.deletes++
	return userIDs, nil
}

// countingRevocations records what users/delete revokes and announces, and
// in how many calls.
type countingRevocations struct {
	identity.RevocationStore
	saves, announcements int
	saved                []identity.Revocation
	announced            []identity.AccessRemoval
}

func (c *countingRevocations) SaveRevocations(_ context.Context, _ string, rs []identity.Revocation) error {
	c.saves++
	c.saved = append(c.saved, rs...)
	return nil
}

func (c *countingRevocations) AccessRemoved(_ context.Context, _ string, removed []identity.AccessRemoval) error {
	c.announcements++
	c.announced = append(c.announced, removed...)
	return nil
}

// users/delete of 1,000 users removes them with one store call, records
// their revocations a chunk at a time (4 store calls) and announces them
// once, not once per user (it took minutes on the embedded store), and
// each user exactly once.
func TestDeleteUsersRevokesAndAnnouncesInChunks(t *testing.T) {
	t.Parallel()
	for _, sc := range []identity.Scope{
		{OrganizationID: "org"},
		{OrganizationID: "org", DocumentID: "d1"},
	} {
		st, revs := &removingStore{}, &countingRevocations{}
		now := time.UnixMilli(1_700_000_000_000)
		svc := identity.NewService(st, nil, func() time.Time { return now }).WithRevocations(revs, revs)
		ids := make([]string, 1000)
		for i := range ids {
			ids[i] = fmt.Sprintf("u%04d", i)
		}
		out, err := svc.DeleteUsers(context.Background(), "ws", identity.DeleteUsersRequest{Scope: sc, UserIDs: ids})
		if err != nil {
			t.Fatal(err)
		}
		if len(out) != 1000 || !out["u0999"].Success {
			t.Fatalf("%+v: %d results, u0999 = %+v", sc, len(out), out["u0999"])
		}
		if st.deletes != 1 || revs.saves != 4 || revs.announcements != 1 {
			t.Errorf("%+v: %d deletes, %d revocation saves, %d announcements for 1,000 users; want 1, 4 (chunks of 250), 1",
				sc, st.deletes, revs.saves, revs.announcements)
		}
		checkEachUserOnce(t, ids, revs, now.UnixMilli())
	}
}

func checkEachUserOnce(t *testing.T, ids []string, revs *countingRevocations, at int64) {
	t.Helper()
	if len(revs.saved) != len(ids) || len(revs.announced) != len(ids) {
		t.Fatalf("%d revocations and %d announcements for %d users", len(revs.saved), len(revs.announced), len(ids))
	}
	for i, id := range ids {
		r, a := revs.saved[i], revs.announced[i]
		if r.UserID != id || r.RevokedAt != at || r.OrganizationID != "org" {
			t.Fatalf("revocation %d = %+v, want user %s revoked at %d in org", i, r, id, at)
		}
		if a != (identity.AccessRemoval{UserID: id, OrganizationID: "org"}) {
			t.Fatalf("announcement %d = %+v, want %s in org", i, a, id)
		}
	}
}

// permissions/remove of many resources of one user records every
// revocation in one call and announces the user once per organization.
func TestRemovePermissionsAnnouncesEachUserOnce(t *testing.T) {
	t.Parallel()
	revs := &countingRevocations{}
	svc := identity.NewService(grantDeleter{}, nil, nil).WithRevocations(revs, revs)
	var refs []identity.ResourceRef
	for i := range 100 {
		refs = append(refs, identity.ResourceRef{Type: identity.ResourceDocument, ID: fmt.Sprintf("d%d", i), OrganizationID: "o1"})
	}
	refs = append(refs, identity.ResourceRef{Type: identity.ResourceDocument, ID: "x", OrganizationID: "o2"})
	if err := svc.RemovePermissions(context.Background(), "ws", "u1", refs); err != nil {
		t.Fatal(err)
	}
	want := []identity.AccessRemoval{{UserID: "u1", OrganizationID: "o1"}, {UserID: "u1", OrganizationID: "o2"}}
	if revs.saves != 1 || len(revs.saved) != 101 || revs.announcements != 1 || fmt.Sprint(revs.announced) != fmt.Sprint(want) {
		t.Fatalf("%d saves of %d revocations, %d announcements %v; want 1 of 101, 1 %v",
			revs.saves, len(revs.saved), revs.announcements, revs.announced, want)
	}
}

// grantDeleter accepts permissions/remove's one delete.
type grantDeleter struct{ identity.Store }

func (grantDeleter) DeleteUserGrants(context.Context, string, string, []identity.ResourceRef) error {
	return nil
}
