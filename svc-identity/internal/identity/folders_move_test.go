package identity_test

import (
	"slices"
	"testing"

	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// addTree adds a → b → c (3 levels) and a sibling top-level folder x.
func addTree(t *testing.T, svc *identity.Service) {
	t.Helper()
	res, err := svc.AddFolders(t.Context(), "ws1", identity.AddFoldersRequest{
		OrganizationID: "o1", CreateOrganization: true,
		Folders: []identity.FolderInput{{ID: "a"}, {ID: "b", ParentID: "a"}, {ID: "c", ParentID: "b"}, {ID: "x"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for id, r := range res {
		if !r.Success {
			t.Fatalf("adding %s: %+v", id, r)
		}
	}
}

func ancestorsOf(t *testing.T, st identity.FolderStore, id string) []string {
	t.Helper()
	f, err := st.GetFolder(t.Context(), "ws1", "o1", id)
	if err != nil {
		t.Fatalf("GetFolder(%s): %v", id, err)
	}
	return f.Ancestors
}

func TestMovingAFolderMovesItsSubtree(t *testing.T) {
	svc, st, _ := newService(t)
	addTree(t, svc)
	if got := ancestorsOf(t, st, "c"); !slices.Equal(got, []string{"root", "a", "b"}) {
		t.Fatalf("c starts at %v", got)
	}
	move := func(id, parent string) identity.ItemResult {
		t.Helper()
		res, err := svc.UpdateFolders(t.Context(), "ws1", "o1", []identity.FolderChange{{ID: id, ParentID: &parent}})
		if err != nil {
			t.Fatal(err)
		}
		return res[id]
	}
	if r := move("a", "x"); !r.Success {
		t.Fatalf("move a under x: %+v", r)
	}
	want := map[string][]string{"a": {"root", "x"}, "b": {"root", "x", "a"}, "c": {"root", "x", "a", "b"}}
	for id, path := range want {
		if got := ancestorsOf(t, st, id); !slices.Equal(got, path) {
			t.Errorf("after move, %s ancestors = %v, want %v", id, got, path)
		}
	}
	if r := move("b", "root"); !r.Success {
		t.Fatalf("move b to the top: %+v", r)
	}
	if got := ancestorsOf(t, st, "c"); !slices.Equal(got, []string{"root", "b"}) {
		t.Fatalf("c after moving b to the top = %v", got)
	}
	b, _ := st.GetFolder(t.Context(), "ws1", "o1", "b")
	if b.ParentID != "root" {
		t.Fatalf("b parent = %q", b.ParentID)
	}
}

func TestMovesThatAreRefused(t *testing.T) {
	svc, st, _ := newService(t)
	addTree(t, svc)
	for _, tc := range []struct{ id, parent string }{
		{"a", "a"},       // itself
		{"a", "c"},       // its grandchild
		{"a", "missing"}, // no such parent
		{"missing", "x"}, // no such folder
	} {
		parent := tc.parent
		res, err := svc.UpdateFolders(t.Context(), "ws1", "o1", []identity.FolderChange{{ID: tc.id, ParentID: &parent}})
		if err != nil {
			t.Fatal(err)
		}
		if r := res[tc.id]; r.Success || r.Message == "" {
			t.Errorf("move %s under %s = %+v, want success false with a message", tc.id, tc.parent, r)
		}
	}
	if got := ancestorsOf(t, st, "c"); !slices.Equal(got, []string{"root", "a", "b"}) {
		t.Fatalf("a refused move changed c: %v", got)
	}
}

// TestRepeatingAMoveRepairsAnInterruptedOne simulates a move that stopped
// after the folder itself was placed: its descendants still carry the old
// path until the move is sent again.
func TestRepeatingAMoveRepairsAnInterruptedOne(t *testing.T) {
	svc, st, _ := newService(t)
	addTree(t, svc)
	if err := st.PlaceFolder(t.Context(), "ws1", "o1", "a", "x", []string{"root", "x"}, 1); err != nil {
		t.Fatal(err)
	}
	parent := "x"
	if _, err := svc.UpdateFolders(t.Context(), "ws1", "o1", []identity.FolderChange{{ID: "a", ParentID: &parent}}); err != nil {
		t.Fatal(err)
	}
	if got := ancestorsOf(t, st, "c"); !slices.Equal(got, []string{"root", "x", "a", "b"}) {
		t.Fatalf("c after the repeated move = %v", got)
	}
}
