package store_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-content/internal/annotations"
	"github.com/opencollab/backend/svc-content/internal/store"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// TestMongoAnnotationsKeepTheStoreContract runs the AnnotationStore
// contract against the MongoDB store on the test database (the embedded
// FerretDB unless a MongoDB is given).
func TestMongoAnnotationsKeepTheStoreContract(t *testing.T) {
	runAnnotationStoreContract(t, func(t *testing.T) annotations.AnnotationStore {
		s := store.NewAnnotations(testenv.Mongo(t))
		if err := s.EnsureIndexes(t.Context()); err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// runAnnotationStoreContract checks what the operations rely on of an
// AnnotationStore, on a fresh store from newStore per case.
func runAnnotationStoreContract(t *testing.T, newStore func(t *testing.T) annotations.AnnotationStore) {
	t.Run("an annotation reads back as it was written", func(t *testing.T) { contractRoundTrip(t, newStore(t)) })
	t.Run("insert writes the new ids and reports the taken ones", func(t *testing.T) { contractInsert(t, newStore(t)) })
	t.Run("replace writes on the version read and refuses a gone annotation", func(t *testing.T) { contractReplace(t, newStore(t)) })
	t.Run("queries select by every field and page in cursor order", func(t *testing.T) { contractQueries(t, newStore(t)) })
	t.Run("delete, move document and any", func(t *testing.T) { contractDeleteMove(t, newStore(t)) })
}

// fullAnnotation has every field set, open objects nested, and both an
// empty and an absent list. Its involved and mentioned users are the ones
// the domain derives from its comments.
func fullAnnotation(ws, id string, updated int64) *annotations.Annotation {
	a := &annotations.Annotation{
		WorkspaceID: ws, OrganizationID: "org1", DocumentID: "doc1", AnnotationID: id, AnnotationNumber: 7,
		Type: "suggestion", CommentType: "manual", SourceType: "rest-api",
		Location: map[string]any{"id": "loc1", "path": []any{"a", 1.5}}, TargetElement: map[string]any{"x": true},
		Status: map[string]any{"id": "OPEN", "type": "default"}, Priority: map[string]any{"id": "P1"},
		AssignedTo: user("carol"), From: user("alice"),
		Comments: []annotations.Comment{{CommentID: 1, Type: "text", Status: "added", CommentText: "hi", CommentHTML: "<p>hi</p>",
			From: user("alice"), To: []annotations.User{user("bob")}, TaggedUserContacts: []map[string]any{{"userId": "bob"}},
			Attachments: []map[string]any{{"name": "f.txt", "size": 3.0}}, Context: map[string]any{"k": map[string]any{"n": "v"}},
			IsCommentTextAvailable: true, CreatedAt: 10, LastUpdated: 11},
			{CommentID: 2, Type: "text", Status: "added", From: user("bob"), To: []annotations.User{}, CreatedAt: 12, LastUpdated: 12}},
		Reactions: []annotations.Reaction{{ReactionID: "rxn_1", Icon: "+1", FromUsers: []annotations.ReactionUser{{From: user("bob"), LastUpdated: 13}},
			CreatedAt: 13, LastUpdated: 13}},
		ResolvedByUserID: "carol", ResolvedByUser: user("carol"), StatusUpdatedByUserID: "carol",
		Context: map[string]any{"access": map[string]any{"x": []any{"y"}}}, VisibilityConfig: map[string]any{"type": "public"},
		Suggestion: map[string]any{"status": "pending"}, CreatedAt: 10, LastUpdated: updated,
		LastCommentID: 2, Version: 1, IndexedRows: []string{`["comment","1","alice"]`},
		InvolvedUserIDs: []string{"alice", "bob", "carol"}, MentionedUserIDs: []string{"bob"},
	}
	return a
}

func contractRoundTrip(t *testing.T, s annotations.AnnotationStore) {
	ctx := t.Context()
	for _, a := range []*annotations.Annotation{fullAnnotation("ws1", "full", 20),
		{WorkspaceID: "ws1", OrganizationID: "org1", DocumentID: "doc1", AnnotationID: "bare", Reactions: []annotations.Reaction{}}} {
		if _, err := s.InsertNew(ctx, []*annotations.Annotation{a}); err != nil {
			t.Fatal(err)
		}
		got, err := s.Load(ctx, "ws1", a.AnnotationID)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(a)
		if have, _ := json.Marshal(got); string(have) != string(want) {
			t.Errorf("read back\n%s\nwrote\n%s", have, want)
		}
	}
	if _, err := s.Load(ctx, "ws2", "full"); !errors.Is(err, annotations.ErrNoAnnotation) {
		t.Errorf("load from another workspace = %v, want ErrNoAnnotation", err)
	}
	if ok, err := s.Exists(ctx, "ws1", "full"); err != nil || !ok {
		t.Errorf("exists = %v, %v", ok, err)
	}
	if ok, err := s.Exists(ctx, "ws1", "nope"); err != nil || ok {
		t.Errorf("exists of a missing id = %v, %v", ok, err)
	}
}

func contractInsert(t *testing.T, s annotations.AnnotationStore) {
	ctx := t.Context()
	if _, err := s.InsertNew(ctx, []*annotations.Annotation{fullAnnotation("ws1", "b", 1)}); err != nil {
		t.Fatal(err)
	}
	taken, err := s.InsertNew(ctx, []*annotations.Annotation{fullAnnotation("ws1", "a", 1), fullAnnotation("ws1", "b", 1),
		fullAnnotation("ws2", "b", 1), fullAnnotation("ws1", "c", 1)})
	if err != nil || !slices.Equal(taken, []int{1}) {
		t.Fatalf("taken = %v, %v; want [1]", taken, err)
	}
	for _, ws := range []string{"ws1", "ws2"} {
		ids, err := s.IDs(ctx, annotations.Query{WorkspaceID: ws})
		want := map[string]int{"ws1": 3, "ws2": 1}[ws]
		if err != nil || len(ids) != want {
			t.Errorf("%s holds %v (%v), want %d annotations", ws, ids, err, want)
		}
	}
}

func contractReplace(t *testing.T, s annotations.AnnotationStore) {
	ctx := t.Context()
	a := fullAnnotation("ws1", "a", 1)
	if _, err := s.InsertNew(ctx, []*annotations.Annotation{a}); err != nil {
		t.Fatal(err)
	}
	a.Comments, a.Version = a.Comments[:1], 2
	a.LastUpdated = 5
	if err := s.Replace(ctx, a, 1); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(ctx, "ws1", "a")
	if err != nil || got.Version != 2 || len(got.Comments) != 1 || got.LastUpdated != 5 {
		t.Fatalf("after replace: %+v, %v", got, err)
	}
	if err := s.Delete(ctx, "ws1", []string{"a"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Replace(ctx, a, 2); !errors.Is(err, annotations.ErrVersionMoved) {
		t.Fatalf("replace of a deleted annotation = %v, want ErrVersionMoved", err)
	}
	if _, err := s.Load(ctx, "ws1", "a"); !errors.Is(err, annotations.ErrNoAnnotation) {
		t.Fatalf("a refused replace wrote: %v", err)
	}
}

func contractQueries(t *testing.T, s annotations.AnnotationStore) {
	ctx := t.Context()
	var list []*annotations.Annotation
	for i := range 6 {
		a := fullAnnotation("ws1", fmt.Sprintf("a%d", i), int64(100-i)) // a5 changed first
		a.DocumentID = []string{"doc1", "doc2"}[i%2]
		a.Location = map[string]any{"id": fmt.Sprintf("loc%d", i%3)}
		a.From = user([]string{"alice", "bob"}[i/3])
		a.Comments[0].From = a.From
		a.InvolvedUserIDs = slices.Compact([]string{a.From["userId"].(string), "bob", "carol"})
		list = append(list, a)
	}
	if _, err := s.InsertNew(ctx, list); err != nil {
		t.Fatal(err)
	}
	ws := annotations.Query{WorkspaceID: "ws1", OrganizationID: "org1"}
	at := func(ms int64) *int64 { return &ms }
	for name, c := range map[string]struct {
		q    annotations.Query
		want []string
	}{
		"all, oldest change first": {ws, []string{"a5", "a4", "a3", "a2", "a1", "a0"}},
		"documents":                {annotations.Query{WorkspaceID: "ws1", OrganizationID: "org1", DocumentIDs: []string{"doc2"}}, []string{"a5", "a3", "a1"}},
		"any organization":         {annotations.Query{WorkspaceID: "ws1", DocumentIDs: []string{"doc1"}}, []string{"a4", "a2", "a0"}},
		"other organization":       {annotations.Query{WorkspaceID: "ws1", OrganizationID: "org2"}, []string{}},
		"ids and locations":        {annotations.Query{WorkspaceID: "ws1", AnnotationIDs: []string{"a0", "a3", "a4"}, LocationIDs: []string{"loc0"}}, []string{"a3", "a0"}},
		"authors":                  {annotations.Query{WorkspaceID: "ws1", AuthorIDs: []string{"bob"}}, []string{"a5", "a4", "a3"}},
		"mentioned and involved":   {annotations.Query{WorkspaceID: "ws1", MentionedUserIDs: []string{"bob"}, InvolvedUserID: "alice"}, []string{"a2", "a1", "a0"}},
		"status and resolver":      {annotations.Query{WorkspaceID: "ws1", StatusIDs: []string{"OPEN"}, ResolvedBy: "carol", AnnotationIDs: []string{"a1"}}, []string{"a1"}},
		"updated range":            {annotations.Query{WorkspaceID: "ws1", Updated: annotations.Range{After: at(96), Before: at(99)}}, []string{"a3", "a2"}},
		"created range":            {annotations.Query{WorkspaceID: "ws1", Created: annotations.Range{After: at(10)}}, []string{}},
	} {
		if got, err := s.IDs(ctx, c.q); err != nil || !slices.Equal(orEmptyList(got), c.want) {
			t.Errorf("%s: IDs = %v, %v; want %v", name, got, err, c.want)
		}
	}
	// Pages: two at a time from each end, each after the previous cursor.
	for _, asc := range []bool{true, false} {
		var seen []string
		after := ""
		for {
			page, err := s.Page(ctx, ws, after, asc, 2)
			if err != nil {
				t.Fatal(err)
			}
			if len(page) == 0 {
				break
			}
			for _, a := range page {
				seen = append(seen, a.AnnotationID)
			}
			after = page[len(page)-1].Cursor()
		}
		want := []string{"a5", "a4", "a3", "a2", "a1", "a0"}
		if !asc {
			slices.Reverse(want)
		}
		if !slices.Equal(seen, want) {
			t.Errorf("pages (asc %v) = %v, want %v", asc, seen, want)
		}
	}
	authors, err := s.Authors(ctx, annotations.Query{WorkspaceID: "ws1", AnnotationIDs: []string{"a4"}})
	if err != nil || len(authors) != 1 {
		t.Fatalf("authors = %v, %v", authors, err)
	}
	if a := authors[0]; a.AnnotationID != "a4" || a.DocumentID != "doc1" || a.OrganizationID != "org1" ||
		len(a.Comments) != 2 || a.Comments[0].From["userId"] != "bob" {
		t.Errorf("authors gave %+v", a)
	}
}

func contractDeleteMove(t *testing.T, s annotations.AnnotationStore) {
	ctx := t.Context()
	if _, err := s.InsertNew(ctx, []*annotations.Annotation{fullAnnotation("ws1", "a", 1), fullAnnotation("ws1", "b", 2), fullAnnotation("ws2", "a", 1)}); err != nil {
		t.Fatal(err)
	}
	doc1 := annotations.Query{WorkspaceID: "ws1", OrganizationID: "org1", DocumentIDs: []string{"doc1"}}
	if moved, err := s.MoveDocument(ctx, doc1, "doc9"); err != nil || moved != 2 {
		t.Fatalf("moved %d, %v; want 2", moved, err)
	}
	if has, err := s.Any(ctx, doc1); err != nil || has {
		t.Fatalf("doc1 still has annotations: %v, %v", has, err)
	}
	a, err := s.Load(ctx, "ws1", "a")
	if err != nil || a.DocumentID != "doc9" || a.Version != 2 {
		t.Fatalf("moved annotation: %+v, %v; want doc9 at version 2", a, err)
	}
	if err := s.Delete(ctx, "ws1", []string{"a", "zz"}); err != nil {
		t.Fatal(err)
	}
	if ids, err := s.IDs(ctx, annotations.Query{WorkspaceID: "ws1"}); err != nil || !slices.Equal(ids, []string{"b"}) {
		t.Fatalf("ws1 after delete = %v, %v", ids, err)
	}
	if ok, err := s.Exists(ctx, "ws2", "a"); err != nil || !ok {
		t.Fatalf("delete reached another workspace: %v, %v", ok, err)
	}
}

func orEmptyList(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

func user(id string) annotations.User {
	return annotations.User{"userId": id, "name": "User " + id, "email": id + "@example.com"}
}
