package store_test

import (
	"slices"
	"testing"

	"github.com/opencollab/backend/svc-identity/internal/identity"
)

func TestOrganizationUserIDsListsEveryMemberOnceInOrder(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	past := int64(1)
	member := func(org string, typ identity.ResourceType, res, user string) identity.Membership {
		return identity.Membership{MembershipKey: identity.MembershipKey{OrganizationID: org, Type: typ, ResourceID: res, UserID: user}}
	}
	expired := member("o1", identity.ResourceDocument, "d2", "u0")
	expired.ExpiresAt = &past
	mustSave(t, s, "ws1",
		member("o1", identity.ResourceOrganization, "o1", "u3"),
		member("o1", identity.ResourceFolder, "f1", "u2"),
		docMember("d1", "u2"), docMember("d2", "u2"), docMember("d1", "u1"),
		expired,
		member("o2", identity.ResourceOrganization, "o2", "other-org"))
	mustSave(t, s, "ws2", docMember("d1", "other-workspace"))

	got, err := s.OrganizationUserIDs(ctx, "ws1", "o1", 10)
	if err != nil {
		t.Fatal(err)
	}
	// Every level counts, expired memberships too (the caller decides
	// access); u2's three memberships give one entry.
	if want := []string{"u0", "u1", "u2", "u3"}; !slices.Equal(got, want) {
		t.Fatalf("users = %v, want %v", got, want)
	}
	// The limit counts users, not memberships.
	if got, _ := s.OrganizationUserIDs(ctx, "ws1", "o1", 3); !slices.Equal(got, []string{"u0", "u1", "u2"}) {
		t.Fatalf("first 3 users = %v", got)
	}
	if got, err := s.OrganizationUserIDs(ctx, "ws1", "o9", 10); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("organization without members: %v, %v; want an empty list", got, err)
	}
}
