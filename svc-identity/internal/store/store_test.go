package store_test

import (
	"context"
	"testing"

	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-identity/internal/identity"
	"github.com/opencollab/backend/svc-identity/internal/store"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// newStore returns a Store on a fresh database with its indexes.
func newStore(t *testing.T) *store.Store {
	t.Helper()
	s := store.New(testenv.Mongo(t))
	if err := s.EnsureIndexes(t.Context()); err != nil {
		t.Fatalf("EnsureIndexes: %v", err)
	}
	return s
}

func TestEnsureIndexesIsIdempotent(t *testing.T) {
	s := newStore(t)
	if err := s.EnsureIndexes(t.Context()); err != nil {
		t.Fatalf("second EnsureIndexes: %v", err)
	}
}

func TestNaturalIDsAreUniquePerWorkspace(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	f := identity.Folder{OrganizationID: "o1", ID: "f1", ParentID: identity.RootFolder, Ancestors: []string{identity.RootFolder}}
	if err := s.InsertFolder(ctx, "ws1", f); err != nil {
		t.Fatal(err)
	}
	if err := s.InsertFolder(ctx, "ws1", f); err != identity.ErrAlreadyExists {
		t.Fatalf("second insert: %v, want ErrAlreadyExists", err)
	}
	if err := s.InsertFolder(ctx, "ws2", f); err != nil {
		t.Fatalf("same id in another workspace: %v", err)
	}
	d := identity.Document{OrganizationID: "o1", ID: "d1", AccessType: identity.DocumentDefault}
	if err := s.InsertDocument(ctx, "ws1", d); err != nil {
		t.Fatal(err)
	}
	if err := s.InsertDocument(ctx, "ws1", d); err != identity.ErrAlreadyExists {
		t.Fatalf("second insert: %v, want ErrAlreadyExists", err)
	}
}

func mustSave(t *testing.T, s *store.Store, ws string, ms ...identity.Membership) {
	t.Helper()
	for _, m := range ms {
		if err := s.SaveMemberships(context.Background(), ws, []identity.Membership{m}); err != nil {
			t.Fatalf("SaveMembership(%+v): %v", m.MembershipKey, err)
		}
	}
}
