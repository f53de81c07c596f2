package identity_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/opencollab/backend/pkg/pagetoken"
	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-identity/internal/identity"
	"github.com/opencollab/backend/svc-identity/internal/store"
)

// countingRoles counts the batch calls of users/update and fails the
// failAt-th SetMembershipRoles call (1-based; 0 never).
type countingRoles struct {
	identity.Store
	reads, profileWrites, roleWrites, failAt int
}

func (c *countingRoles) MembersAt(ctx context.Context, ws string, at identity.MembershipKey, ids []string) ([]string, error) {
	c.reads++
	return c.Store.MembersAt(ctx, ws, at, ids)
}

func (c *countingRoles) SaveUsers(ctx context.Context, ws string, ps []identity.Profile, now int64) error {
	c.profileWrites++
	return c.Store.SaveUsers(ctx, ws, ps, now)
}

func (c *countingRoles) SetMembershipRoles(ctx context.Context, ws string, at identity.MembershipKey, ids []string, role identity.Role) error {
	c.roleWrites++
	if c.roleWrites == c.failAt {
		return errors.New("store went away")
	}
	return c.Store.SetMembershipRoles(ctx, ws, at, ids, role)
}

// users/update reads and writes in batches (not one user at a time, nor
// one read per chunk); one that fails part way (profiles written, roles
// not) is completed by the same request again, which keeps a grant's
// expiry.
func TestUpdateUsersFailingPartWayIsCompletedByARetry(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := store.New(testenv.Mongo(t))
	if err := st.EnsureIndexes(ctx); err != nil {
		t.Fatal(err)
	}
	pages := pagetoken.New(testenv.Redis(t), 0)
	add := identity.AddUsersRequest{Scope: identity.Scope{OrganizationID: "org"}}
	update := identity.UpdateUsersRequest{Scope: add.Scope}
	for i := range 300 { // more than a chunk (writeChunk): still one write of each kind
		id, name := fmt.Sprintf("u%03d", i), fmt.Sprintf("Renamed %d", i)
		add.Users = append(add.Users, identity.UserInput{Profile: identity.Profile{UserID: id}})
		update.Users = append(update.Users, identity.UserInput{Profile: identity.Profile{UserID: id, Name: &name}, AccessRole: identity.RoleViewer})
	}
	update.Users = append(update.Users, identity.UserInput{Profile: identity.Profile{UserID: "ghost"}, AccessRole: identity.RoleViewer})
	if _, err := identity.NewService(st, pages, nil).AddUsers(ctx, "ws", add); err != nil {
		t.Fatal(err)
	}
	expiry := int64(4102444800000)
	grant := identity.Membership{MembershipKey: orgKey("u000"), AccessRole: identity.RoleEditor, ExpiresAt: &expiry}
	if err := st.SaveMemberships(ctx, "ws", []identity.Membership{grant}); err != nil {
		t.Fatal(err)
	}

	failing := &countingRoles{Store: st, failAt: 1}
	if _, err := identity.NewService(failing, pages, nil).UpdateUsers(ctx, "ws", update); err == nil {
		t.Fatal("UpdateUsers succeeded with a store failing part way")
	}
	if failing.reads != 1 || failing.profileWrites != 1 {
		t.Errorf("%d membership reads and %d profile writes before the failure, want 1 and 1", failing.reads, failing.profileWrites)
	}
	renamed, viewers := countRenamed(t, st, 300), countRole(t, st, identity.RoleViewer)
	if renamed != 300 || viewers != 0 {
		t.Fatalf("%d profiles renamed and %d viewers after the failure, want 300 and 0 (part way)", renamed, viewers)
	}

	counted := &countingRoles{Store: st}
	out, err := identity.NewService(counted, pages, nil).UpdateUsers(ctx, "ws", update)
	if err != nil {
		t.Fatal(err)
	}
	if out["ghost"].Success || !out["u299"].Success {
		t.Errorf("ghost = %+v, u299 = %+v", out["ghost"], out["u299"])
	}
	if counted.reads != 1 || counted.profileWrites != 1 || counted.roleWrites != 1 {
		t.Errorf("%d reads, %d profile writes, %d role writes for 301 users of one role, want 1 each",
			counted.reads, counted.profileWrites, counted.roleWrites)
	}
	if renamed := countRenamed(t, st, 300); renamed != 300 {
		t.Fatalf("%d of 300 profiles renamed after the retry", renamed)
	}
	if viewers := countRole(t, st, identity.RoleViewer); viewers != 300 {
		t.Fatalf("%d viewers after the retry, want 300", viewers)
	}
	kept, err := st.GetMembership(ctx, "ws", grant.MembershipKey)
	if err != nil || kept.ExpiresAt == nil || *kept.ExpiresAt != expiry || kept.AccessRole != identity.RoleViewer {
		t.Fatalf("u000 after the update = %+v, %v; want viewer expiring at %d", kept, err, expiry)
	}
}

// A user listed twice ends with the values of its last listing.
func TestUpdateUsersListedTwiceKeepsTheLast(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := store.New(testenv.Mongo(t))
	svc := identity.NewService(st, pagetoken.New(testenv.Redis(t), 0), nil)
	sc := identity.Scope{OrganizationID: "org"}
	if _, err := svc.AddUsers(ctx, "ws", identity.AddUsersRequest{Scope: sc, Users: []identity.UserInput{{Profile: identity.Profile{UserID: "a"}}}}); err != nil {
		t.Fatal(err)
	}
	first, last := "First", "Last"
	_, err := svc.UpdateUsers(ctx, "ws", identity.UpdateUsersRequest{Scope: sc, Users: []identity.UserInput{
		{Profile: identity.Profile{UserID: "a", Name: &first}, AccessRole: identity.RoleViewer},
		{Profile: identity.Profile{UserID: "a", Name: &last}, AccessRole: identity.RoleEditor},
	}})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := st.GetUsers(ctx, "ws", []string{"a"})
	m, _ := st.GetMembership(ctx, "ws", orgKey("a"))
	if got["a"].Name != last || m.AccessRole != identity.RoleEditor {
		t.Fatalf("name %q role %q, want %q editor", got["a"].Name, m.AccessRole, last)
	}
}

func countRole(t *testing.T, st *store.Store, role identity.Role) int {
	t.Helper()
	ms, err := st.ListMembers(context.Background(), "ws", identity.MemberQuery{
		OrganizationID: "org", Type: identity.ResourceOrganization, ResourceID: "org", Limit: 10000,
	})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range ms {
		if m.AccessRole == role {
			n++
		}
	}
	return n
}

func countRenamed(t *testing.T, st *store.Store, n int) int {
	t.Helper()
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("u%03d", i)
	}
	got, err := st.GetUsers(context.Background(), "ws", ids)
	if err != nil {
		t.Fatal(err)
	}
	renamed := 0
	for i, id := range ids {
		if got[id].Name == fmt.Sprintf("Renamed %d", i) {
			renamed++
		}
	}
	return renamed
}

func orgKey(userID string) identity.MembershipKey {
	return identity.MembershipKey{OrganizationID: "org", Type: identity.ResourceOrganization, ResourceID: "org", UserID: userID}
}
