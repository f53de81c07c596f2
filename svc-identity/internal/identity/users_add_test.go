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

// failingMemberships fails the failAt-th SaveMemberships call (1-based), as
// a store that goes away part way through a request.
type failingMemberships struct {
	identity.Store
	calls, failAt int
}

func (f *failingMemberships) SaveMemberships(ctx context.Context, ws string, ms []identity.Membership) error {
	f.calls++
	if f.calls == f.failAt {
		return errors.New("store went away")
	}
	return f.Store.SaveMemberships(ctx, ws, ms)
}

// A users/add that fails part way leaves no user half added (every member
// has a profile), and the same request again completes it.
func TestAddUsersFailingPartWayIsCompletedByARetry(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := store.New(testenv.Mongo(t))
	if err := st.EnsureIndexes(ctx); err != nil {
		t.Fatal(err)
	}
	pages := pagetoken.New(testenv.Redis(t), 0)
	req := identity.AddUsersRequest{Scope: identity.Scope{OrganizationID: "org"}}
	for i := range 300 { // two bulk writes of memberships
		name := fmt.Sprintf("User %d", i)
		req.Users = append(req.Users, identity.UserInput{Profile: identity.Profile{UserID: fmt.Sprintf("u%03d", i), Name: &name}})
	}
	failing := &failingMemberships{Store: st, failAt: 2}
	if _, err := identity.NewService(failing, pages, nil).AddUsers(ctx, "ws", req); err == nil {
		t.Fatal("AddUsers succeeded with a store failing part way")
	}
	members := orgMembers(t, st, "org")
	if len(members) == 0 || len(members) == len(req.Users) {
		t.Fatalf("%d members after the failure: the failure was not part way", len(members))
	}
	profiles, err := st.GetUsers(ctx, "ws", members)
	if err != nil {
		t.Fatal(err)
	}
	if len(profiles) != len(members) {
		t.Fatalf("%d of %d members have a profile: a user is half added", len(profiles), len(members))
	}

	if _, err := identity.NewService(st, pages, nil).AddUsers(ctx, "ws", req); err != nil {
		t.Fatal(err)
	}
	if got := orgMembers(t, st, "org"); len(got) != len(req.Users) {
		t.Fatalf("%d members after the retry, want %d", len(got), len(req.Users))
	}
}

func orgMembers(t *testing.T, st *store.Store, org string) []string {
	t.Helper()
	ms, err := st.ListMembers(context.Background(), "ws", identity.MemberQuery{
		OrganizationID: org, Type: identity.ResourceOrganization, ResourceID: org, Limit: 10000,
	})
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.UserID
	}
	return ids
}
