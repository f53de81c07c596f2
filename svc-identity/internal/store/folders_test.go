package store_test

import (
	"slices"
	"testing"

	"github.com/opencollab/backend/svc-identity/internal/identity"
)

func folder(id string, ancestors ...string) identity.Folder {
	path := append([]string{identity.RootFolder}, ancestors...)
	return identity.Folder{OrganizationID: "o1", ID: id, ParentID: path[len(path)-1], Ancestors: path, AccessType: identity.OrganizationPrivate}
}

func TestDescendantsAndDeleteFolders(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	for _, f := range []identity.Folder{folder("a"), folder("b", "a"), folder("c", "a", "b"), folder("z")} {
		if err := s.InsertFolder(ctx, "ws1", f); err != nil {
			t.Fatal(err)
		}
	}
	below, err := s.ListDescendantFolders(ctx, "ws1", "o1", "a")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, f := range below {
		ids = append(ids, f.ID)
	}
	if !slices.Equal(ids, []string{"b", "c"}) {
		t.Fatalf("descendants of a = %v, want [b c]", ids)
	}

	for _, d := range []identity.Document{{OrganizationID: "o1", ID: "in-c", FolderID: "c"}, {OrganizationID: "o1", ID: "in-z", FolderID: "z"}} {
		if err := s.InsertDocument(ctx, "ws1", d); err != nil {
			t.Fatal(err)
		}
	}
	mustSave(t, s, "ws1", docMember("in-c", "u1"), docMember("in-z", "u1"))
	if err := s.DeleteFolders(ctx, "ws1", "o1", []string{"a", "b", "c"}); err != nil {
		t.Fatal(err)
	}
	left, _ := s.ListFolders(ctx, "ws1", "o1")
	if len(left) != 1 || left[0].ID != "z" {
		t.Fatalf("folders left = %+v, want only z", left)
	}
	if _, err := s.GetDocument(ctx, "ws1", "o1", "in-c"); err != identity.ErrNotFound {
		t.Fatalf("document of a deleted folder survived: %v", err)
	}
	ms, _ := s.UserMemberships(ctx, "ws1", identity.GrantQuery{OrganizationID: "o1", UserIDs: []string{"u1"}, DocumentIDs: []string{"in-c", "in-z"}})
	if len(ms) != 1 || ms[0].ResourceID != "in-z" {
		t.Fatalf("memberships left = %+v, want only in-z", ms)
	}
}
