package store_test

import (
	"fmt"
	"testing"

	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-identity/internal/identity"
	"github.com/opencollab/backend/svc-identity/internal/store"
)

// A chunk of revocations is one insert; the same chunk again (a retry, or
// the users removed again) is that insert plus one update that moves every
// revokedAt, never a command per revocation.
func TestSaveRevocationsIsOneCommandPerChunk(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db, commands := testenv.CountingMongo(t)
	s := store.NewRevocations(db)
	ensured(t, s.EnsureIndexes)
	batch := func(n int, at int64) []identity.Revocation {
		rs := make([]identity.Revocation, n)
		for i := range rs {
			rs[i] = identity.Revocation{UserID: fmt.Sprintf("u%03d", i), Type: identity.RevokedMembership, ResourceID: "o1", OrganizationID: "o1", RevokedAt: at}
		}
		return rs
	}
	commands.Take()
	if err := s.SaveRevocations(ctx, "ws", batch(200, 1000)); err != nil {
		t.Fatal(err)
	}
	if got := commands.Take().Counts(); got["insert"] != 1 || len(got) != 1 {
		t.Fatalf("commands of 200 new revocations: %v, want one insert", got)
	}
	if err := s.SaveRevocations(ctx, "ws", batch(250, 2000)); err != nil {
		t.Fatal(err)
	}
	if got := commands.Take().Counts(); got["insert"] != 1 || got["update"] != 1 || len(got) != 2 {
		t.Fatalf("commands of 200 stored and 50 new revocations: %v, want one insert and one update", got)
	}
	for _, user := range []string{"u000", "u199", "u249"} {
		revs, err := s.Revocations(ctx, "ws", user, 1500)
		if err != nil {
			t.Fatal(err)
		}
		if len(revs) != 1 || revs[0].RevokedAt != 2000 || revs[0].Type != identity.RevokedMembership || revs[0].ResourceID != "o1" {
			t.Fatalf("%s revocations since 1500: %+v, want one organizationMembership of o1 at 2000", user, revs)
		}
	}
	if revs, err := s.Revocations(ctx, "ws", "u000", 2001); err != nil || len(revs) != 0 {
		t.Fatalf("revocations since 2001: %+v, %v", revs, err)
	}
}
