package store_test

import (
	"fmt"
	"testing"

	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-identity/internal/identity"
	"github.com/opencollab/backend/svc-identity/internal/store"
)

// users/update's writes on the store: the profiles of a batch are one read
// and one update command by _id of those that change; the roles are one
// read and one update command of the memberships whose role differs (was
// an update that scanned the collection). A retry changes nothing and
// sends no update.
func TestUsersUpdateWritesChangedDocumentsByIDInOneCommand(t *testing.T) {
	t.Parallel()
	db, commands := testenv.CountingMongo(t)
	ctx := t.Context()
	s := store.New(db)
	ensured(t, s.EnsureIndexes)
	const n = 120
	profiles, memberships, ids := make([]identity.Profile, n), make([]identity.Membership, n), make([]string, n)
	for i := range n {
		ids[i] = fmt.Sprintf("u%03d", i)
		profiles[i] = identity.Profile{UserID: ids[i]}
		role := identity.RoleEditor
		if i%2 == 0 {
			role = identity.RoleViewer
		}
		memberships[i] = identity.Membership{MembershipKey: orgMembership(ids[i]), AccessRole: role}
	}
	if err := s.SaveUsers(ctx, "ws", profiles, 1); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveMemberships(ctx, "ws", memberships); err != nil {
		t.Fatal(err)
	}
	for i := range profiles {
		name := "Renamed " + ids[i]
		profiles[i].Name = &name
	}
	for round := range 2 {
		commands.Take()
		if err := s.SaveUsers(ctx, "ws", profiles, int64(2+round)); err != nil {
			t.Fatal(err)
		}
		if err := s.SetMembershipRoles(ctx, "ws", orgMembership(""), ids, identity.RoleViewer); err != nil {
			t.Fatal(err)
		}
		got := commands.Take().Counts()
		wantUpdates := map[int]int{0: 2, 1: 0}[round] // profiles, then roles; then nothing
		if got["find"] != 2 || got["update"] != wantUpdates || got["insert"] != 0 {
			t.Errorf("round %d: commands %v, want 2 finds and %d updates", round, got, wantUpdates)
		}
	}
	users, err := s.GetUsers(ctx, "ws", ids)
	if err != nil || users["u119"].Name != "Renamed u119" {
		t.Fatalf("u119 = %+v, %v", users["u119"], err)
	}
	m, err := s.GetMembership(ctx, "ws", orgMembership("u119"))
	if err != nil || m.AccessRole != identity.RoleViewer {
		t.Fatalf("u119's membership = %+v, %v; want viewer", m, err)
	}
}

func orgMembership(userID string) identity.MembershipKey {
	return identity.MembershipKey{OrganizationID: "o1", Type: identity.ResourceOrganization, ResourceID: "o1", UserID: userID}
}
