package e2e

import (
	"fmt"
	"slices"
	"testing"
)

// folderOf returns the record of folder id from a flat folders/get reply.
func folderOf(t *testing.T, r reply, id string) map[string]any {
	t.Helper()
	for _, f := range objects(t, r) {
		if f["folderId"] == id {
			return f
		}
	}
	t.Fatalf("no folder %s in %s", id, r.Raw)
	return nil
}

func ancestorsOf(f map[string]any) string { return fmt.Sprint(f["ancestors"]) }

func TestFoldersAndDocuments(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	const org = "acme"
	folders := func() reply { return s.ok("/v2/organizations/folders/get", map[string]any{"organizationId": org}) }
	docs := func(ids ...string) []map[string]any {
		return objects(t, s.ok("/v2/organizations/documents/get", map[string]any{"organizationId": org, "documentIds": ids}))
	}

	t.Run("folders/add", func(t *testing.T) {
		body := map[string]any{"organizationId": org, "folders": []any{map[string]any{"folderId": "a"}}}
		s.fails("/v2/organizations/folders/add", body, "NOT_FOUND", 404)
		if got := objects(t, s.ok("/v2/organizations/get", map[string]any{})); len(got) != 0 {
			t.Fatalf("refused folders/add created %v", got)
		}
		r := s.ok("/v2/organizations/folders/add", map[string]any{"organizationId": org, "createOrganization": true, "folders": []any{
			map[string]any{"folderId": "a", "folderName": "A"},
			map[string]any{"folderId": "b", "parentFolderId": "a"},
			map[string]any{"folderId": "c", "parentFolderId": "b"},
			map[string]any{"folderId": "z", "parentFolderId": "root", "accessType": "public"},
			map[string]any{"folderId": "x", "parentFolderId": "nope"},
		}})
		expectItems(t, r, map[string]bool{"a": true, "b": true, "c": true, "z": true, "x": false})
		if id := item(t, r, "a")["id"]; id != "a" {
			t.Fatalf("folder item id = %v, want the folder id", id)
		}
		expectItems(t, s.ok("/v2/organizations/folders/add", map[string]any{"organizationId": org,
			"folders": []any{map[string]any{"folderId": "a"}}}), map[string]bool{"a": false})
	})

	t.Run("folders/get flat", func(t *testing.T) {
		r := folders()
		if got := field(t, r, "folderId"); len(got) != 4 {
			t.Fatalf("folders = %v, want a b c z", got)
		}
		a := folderOf(t, r, "a")
		if a["folderName"] != "A" || a["parentFolderId"] != "root" || ancestorsOf(a) != "[root]" || a["organizationId"] != org ||
			a["accessType"] != "organizationPrivate" || a["inheritAccessFromParent"] != false {
			t.Fatalf("a = %v", a)
		}
		if c := folderOf(t, r, "c"); c["parentFolderId"] != "b" || ancestorsOf(c) != "[root a b]" || c["accessType"] != "organizationPrivate" || c["inheritAccessFromParent"] != true {
			t.Fatalf("c = %v", c)
		}
		if z := folderOf(t, r, "z"); z["parentFolderId"] != "root" || ancestorsOf(z) != "[root]" || z["accessType"] != "public" {
			t.Fatalf("z = %v", z)
		}
		if _, present := a["subFolders"]; present {
			t.Fatalf("flat list carries subFolders: %v", a)
		}
		if ts, _ := a["createdAt"].(float64); ts < 1e12 {
			t.Fatalf("createdAt %v is not epoch ms", a["createdAt"])
		}
	})

	t.Run("folders/get tree", func(t *testing.T) {
		tree := objects(t, s.ok("/v2/organizations/folders/get", map[string]any{"organizationId": org, "folderId": "a", "maxDepth": 5}))
		if len(tree) != 1 || tree[0]["folderId"] != "a" {
			t.Fatalf("tree = %v", tree)
		}
		if got := nested(tree[0]); got != "a(b(c()))" {
			t.Fatalf("tree shape %s, want a(b(c()))", got)
		}
		shallow := objects(t, s.ok("/v2/organizations/folders/get", map[string]any{"organizationId": org, "folderId": "a"}))
		if got := nested(shallow[0]); got != "a(b())" {
			t.Fatalf("default depth shape %s, want a(b()) (direct children only)", got)
		}
		s.fails("/v2/organizations/folders/get", map[string]any{"organizationId": org, "folderId": "nope"}, "NOT_FOUND", 404)
	})

	t.Run("folders/get apiKey", func(t *testing.T) {
		t.Skip("BUG (design question): adjacent-operations §4 lists apiKey in folder records; svc-identity only knows the workspace id, so folders/get omits it")
		if _, ok := folderOf(t, folders(), "a")["apiKey"]; !ok {
			t.Fatal("folder record has no apiKey")
		}
	})

	t.Run("documents/add", func(t *testing.T) {
		r := s.ok("/v2/organizations/documents/add", map[string]any{"organizationId": org, "folderId": "c", "documents": []any{
			map[string]any{"documentId": "doc1", "documentName": "Plan", "owner": "team-x", "folderId": "a", "organizationId": "other"},
			map[string]any{"documentId": "doc2", "accessType": "restricted"},
		}})
		expectItems(t, r, map[string]bool{"doc1": true, "doc2": true})
		// An existing id is a per-item failure inside a success envelope.
		r = s.ok("/v2/organizations/documents/add", map[string]any{"organizationId": org, "documents": []any{
			map[string]any{"documentId": "doc1", "documentName": "Overwrite"}, map[string]any{"documentId": "top"},
		}})
		expectItems(t, r, map[string]bool{"doc1": false, "top": true})
		if code := item(t, r, "doc1")["code"]; code != "already-exists" {
			t.Fatalf("existing document code = %v", code)
		}
		s.fails("/v2/organizations/documents/add", map[string]any{"organizationId": org, "folderId": "nofolder",
			"documents": []any{map[string]any{"documentId": "doc3"}}}, "NOT_FOUND", 404)
		s.fails("/v2/organizations/documents/add", map[string]any{"organizationId": "no-org",
			"documents": []any{map[string]any{"documentId": "doc3"}}}, "NOT_FOUND", 404)
		if got := docs("doc3"); got[0]["success"] != false {
			t.Fatalf("refused add created doc3: %v", got)
		}
		expectItems(t, s.ok("/v2/organizations/documents/add", map[string]any{"organizationId": org, "folderId": "made", "createFolder": true,
			"documents": []any{map[string]any{"documentId": "doc3"}}}), map[string]bool{"doc3": true})
		if f := folderOf(t, folders(), "made"); f["parentFolderId"] != "root" {
			t.Fatalf("createFolder made %v", f)
		}
	})

	t.Run("documents/get", func(t *testing.T) {
		got := docs("doc1", "ghost", "top")
		if len(got) != 3 {
			t.Fatalf("documents/get = %v", got)
		}
		d := got[0]
		if d["id"] != "doc1" || d["documentName"] != "Plan" || d["folderId"] != "c" || d["accessType"] != "organizationPrivate" ||
			d["disabled"] != false || d["owner"] != "team-x" || d["organizationId"] != nil {
			t.Fatalf("doc1 = %v", d)
		}
		if g := got[1]; g["id"] != "ghost" || g["success"] != false || g["code"] != "not-found" {
			t.Fatalf("missing entry = %v", g)
		}
		if got[2]["id"] != "top" || got[2]["folderId"] != "" {
			t.Fatalf("top = %v", got[2])
		}
		inC := field(t, s.ok("/v2/organizations/documents/get", map[string]any{"organizationId": org, "folderId": "c"}), "id")
		if !slices.Equal(inC, []string{"doc1", "doc2"}) {
			t.Fatalf("documents in c = %v", inC)
		}
		s.fails("/v2/organizations/documents/get", map[string]any{"organizationId": org, "documentIds": ids("d", 31)}, "INVALID_ARGUMENT", 400)
	})

	t.Run("documents/get pages", func(t *testing.T) {
		seen, pages := collectPages(t, s, "/v2/organizations/documents/get", map[string]any{"organizationId": org, "pageSize": 2}, "pageToken", "id")
		want := []string{"doc1", "doc2", "doc3", "top"}
		if pages != 2 || !slices.Equal(seen, want) {
			t.Fatalf("%d pages gave %v, want %v", pages, seen, want)
		}
		tok := s.ok("/v2/organizations/documents/get", map[string]any{"organizationId": org, "pageSize": 1}).Result["pageToken"]
		s.fails("/v2/organizations/documents/get", map[string]any{"organizationId": org, "folderId": "c", "pageSize": 1, "pageToken": tok}, "INVALID_ARGUMENT", 400)
	})

	t.Run("documents/update", func(t *testing.T) {
		r := s.ok("/v2/organizations/documents/update", map[string]any{"organizationId": org, "documents": []any{
			map[string]any{"documentId": "doc1", "documentName": "Plan B", "accessType": "public", "disabled": true},
			map[string]any{"documentId": "ghost", "documentName": "x"},
		}})
		expectItems(t, r, map[string]bool{"doc1": true, "ghost": false})
		if code := item(t, r, "ghost")["code"]; code != "not-found" {
			t.Fatalf("ghost code = %v", code)
		}
		d := docs("doc1", "ghost")
		if d[0]["documentName"] != "Plan B" || d[0]["accessType"] != "public" || d[0]["disabled"] != true || d[0]["owner"] != "team-x" {
			t.Fatalf("doc1 after update = %v", d[0])
		}
		if d[1]["success"] != false {
			t.Fatalf("update created ghost: %v", d[1])
		}
		s.ok("/v2/organizations/documents/update", map[string]any{"organizationId": org, "documents": []any{
			map[string]any{"documentId": "doc1", "accessType": "organizationPrivate", "disabled": false},
		}})
		// Re-enabled: a disabled document denies every user (velt disablestate), and the
		// subtests below need doc1's ordinary access.
		if d := docs("doc1"); d[0]["accessType"] != "organizationPrivate" || d[0]["disabled"] != false {
			t.Fatalf("organizationPrivate is not stored as default, or doc1 still disabled: %v", d[0])
		}
	})

	t.Run("folders/update moves contents", func(t *testing.T) {
		// zoe is a member of folder z, amy of folder a; doc1 sits in c under a/b.
		s.ok("/v2/users/add", map[string]any{"organizationId": org, "folderId": "z", "users": userRefs("zoe")})
		s.ok("/v2/users/add", map[string]any{"organizationId": org, "folderId": "a", "users": userRefs("amy")})
		access := func(user string) map[string]any {
			d := s.ok("/v2/auth/permissions/get", map[string]any{"organizationId": org, "userIds": []string{user}, "documentIds": []string{"doc1"}}).DataMap()
			return perm(t, d, user, "documents", "doc1")
		}
		expectDenied(t, access("zoe"))
		expectRole(t, access("amy"), "editor")

		r := s.ok("/v1/organizations/folders/update", map[string]any{"organizationId": org, "folders": []any{
			map[string]any{"folderId": "b", "parentFolderId": "z", "folderName": "Bee"},
		}})
		expectItems(t, r, map[string]bool{"b": true})
		f := folders()
		if b := folderOf(t, f, "b"); b["parentFolderId"] != "z" || ancestorsOf(b) != "[root z]" || b["folderName"] != "Bee" {
			t.Fatalf("b after move = %v", b)
		}
		if c := folderOf(t, f, "c"); c["parentFolderId"] != "b" || ancestorsOf(c) != "[root z b]" {
			t.Fatalf("c after move = %v", c)
		}
		if d := docs("doc1"); d[0]["folderId"] != "c" {
			t.Fatalf("doc1 left its folder: %v", d[0])
		}
		expectRole(t, access("zoe"), "editor")
		expectDenied(t, access("amy"))
		tree := objects(t, s.ok("/v2/organizations/folders/get", map[string]any{"organizationId": org, "folderId": "z", "maxDepth": 3}))
		if got := nested(tree[0]); got != "z(b(c()))" {
			t.Fatalf("tree of z = %s", got)
		}
	})

	t.Run("folders/update refusals", func(t *testing.T) {
		before := ancestorsSummary(t, folders())
		r := s.ok("/v1/organizations/folders/update", map[string]any{"organizationId": org, "folders": []any{
			map[string]any{"folderId": "z", "parentFolderId": "c"},       // under its own descendant
			map[string]any{"folderId": "a", "parentFolderId": "a"},       // into itself
			map[string]any{"folderId": "made", "parentFolderId": "nope"}, // missing parent
			map[string]any{"folderId": "ghost", "folderName": "G"},       // missing folder
		}})
		expectItems(t, r, map[string]bool{"z": false, "a": false, "made": false, "ghost": false})
		if after := ancestorsSummary(t, folders()); after != before {
			t.Fatalf("refused moves changed the tree: %s → %s", before, after)
		}
		// Back to the top with "root".
		expectItems(t, s.ok("/v1/organizations/folders/update", map[string]any{"organizationId": org, "folders": []any{
			map[string]any{"folderId": "b", "parentFolderId": "root"},
		}}), map[string]bool{"b": true})
		if c := folderOf(t, folders(), "c"); ancestorsOf(c) != "[root b]" {
			t.Fatalf("c after moving b to the top = %v", c)
		}
	})

	t.Run("folders/delete", func(t *testing.T) {
		r := s.ok("/v2/organizations/folders/delete", map[string]any{"organizationId": org, "folderId": "b"})
		if d, present := r.Result["data"]; !present || d != nil {
			t.Fatalf("folders/delete data = %v, want null", r.Raw)
		}
		if got := field(t, folders(), "folderId"); slices.Contains(got, "b") || slices.Contains(got, "c") || len(got) != 3 {
			t.Fatalf("folders after deleting b = %v, want a z made", got)
		}
		for _, d := range docs("doc1", "doc2", "top") {
			if (d["id"] == "top") == (d["success"] == false) {
				t.Fatalf("after deleting b: %v (doc1 and doc2 were inside, top was not)", d)
			}
		}
		s.fails("/v2/organizations/folders/delete", map[string]any{"organizationId": org, "folderId": "b"}, "NOT_FOUND", 404)
	})

	t.Run("folders/delete removes memberships", func(t *testing.T) {
		s.ok("/v2/organizations/folders/add", map[string]any{"organizationId": org, "folders": []any{
			map[string]any{"folderId": "p"}, map[string]any{"folderId": "q", "parentFolderId": "p"},
		}})
		s.ok("/v2/users/add", map[string]any{"organizationId": org, "folderId": "q", "users": userRefs("quinn")})
		s.ok("/v2/organizations/documents/add", map[string]any{"organizationId": org, "folderId": "q", "documents": []any{map[string]any{"documentId": "qdoc"}}})
		s.ok("/v2/users/add", map[string]any{"organizationId": org, "documentId": "qdoc", "users": userRefs("quentin")})
		s.ok("/v2/organizations/folders/delete", map[string]any{"organizationId": org, "folderId": "p"})
		// Re-created under the same ids, the folder and document start without members.
		s.ok("/v2/organizations/folders/add", map[string]any{"organizationId": org, "folders": []any{map[string]any{"folderId": "q"}}})
		s.ok("/v2/organizations/documents/add", map[string]any{"organizationId": org, "documents": []any{map[string]any{"documentId": "qdoc"}}})
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "folderId": "q"}))
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "documentId": "qdoc"}))
	})

	t.Run("documents/delete", func(t *testing.T) {
		s.ok("/v2/users/add", map[string]any{"organizationId": org, "documentId": "top", "users": userRefs("tina")})
		r := s.ok("/v2/organizations/documents/delete", map[string]any{"organizationId": org, "documentIds": []string{"top", "ghost"}})
		expectItems(t, r, map[string]bool{"top": true, "ghost": false})
		if code := item(t, r, "ghost")["code"]; code != "not-found" {
			t.Fatalf("ghost code = %v", code)
		}
		if d := docs("top"); d[0]["success"] != false {
			t.Fatalf("top still there: %v", d)
		}
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "allDocuments": true}))
		s.ok("/v2/organizations/documents/add", map[string]any{"organizationId": org, "documents": []any{map[string]any{"documentId": "top"}}})
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org, "documentId": "top"}))
	})
}

// nested renders a folders/get tree as id(children...).
func nested(f map[string]any) string {
	s := fmt.Sprint(f["folderId"], "(")
	subs, _ := f["subFolders"].([]any)
	for i, sub := range subs {
		if i > 0 {
			s += ","
		}
		m, _ := sub.(map[string]any)
		s += nested(m)
	}
	if _, present := f["subFolders"]; !present {
		s += "?"
	}
	return s + ")"
}

// ancestorsSummary renders every folder's id, parent and path.
func ancestorsSummary(t *testing.T, r reply) string {
	t.Helper()
	var out []string
	for _, f := range objects(t, r) {
		out = append(out, fmt.Sprint(f["folderId"], "<", f["parentFolderId"], ancestorsOf(f), f["folderName"]))
	}
	slices.Sort(out)
	return fmt.Sprint(out)
}

// TestFolderIDRootIsReserved: "root" names the top of the tree
// (parentFolderId, ancestors). A folder created with that id was its own
// child in folders/get, invisible to permissions/get (so a restricted "root"
// folder did not restrict its documents), and deleting it deleted every
// folder of the organization.
func TestFolderIDRootIsReserved(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	s.ok("/v2/users/add", map[string]any{"organizationId": "acme", "users": userRefs("member")})
	s.ok("/v2/organizations/folders/add", map[string]any{"organizationId": "acme", "folders": []any{
		map[string]any{"folderId": "top1"}, map[string]any{"folderId": "top2"},
	}})
	s.fails("/v2/organizations/folders/add", map[string]any{"organizationId": "acme", "folders": []any{
		map[string]any{"folderId": "root", "accessType": "restricted"},
	}}, "INVALID_ARGUMENT", 400)
	s.fails("/v2/organizations/documents/add", map[string]any{"organizationId": "acme", "folderId": "root", "createFolder": true,
		"documents": []any{map[string]any{"documentId": "rd"}}}, "INVALID_ARGUMENT", 400)
	s.fails("/v2/organizations/folders/delete", map[string]any{"organizationId": "acme", "folderId": "root"}, "NOT_FOUND", 404)
	if got := field(t, s.ok("/v2/organizations/folders/get", map[string]any{"organizationId": "acme"}), "folderId"); !slices.Equal(got, []string{"top1", "top2"}) {
		t.Fatalf("folders = %v, want top1 top2", got)
	}
	// "root" as a parent still means the top.
	expectItems(t, s.ok("/v2/organizations/folders/add", map[string]any{"organizationId": "acme", "folders": []any{
		map[string]any{"folderId": "top3", "parentFolderId": "root"},
	}}), map[string]bool{"top3": true})
}
