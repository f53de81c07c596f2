package annotations_test

import (
	"fmt"
	"testing"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/testenv"

	. "github.com/opencollab/backend/svc-content/internal/annotations"
	"github.com/opencollab/backend/svc-content/internal/store"
)

// userPages reads every page of uid's data and returns the comment and
// reaction keys in order, with the number of calls.
func (f *fixture) userPages(ws, uid string) (comments, reactions []string, calls int) {
	f.t.Helper()
	var cursors map[string]string
	for calls = 1; ; calls++ {
		page, err := f.svc.UserData(f.t.Context(), UserDataQuery{WorkspaceID: ws, OrganizationID: "org1", UserID: uid, Cursors: cursors})
		if err != nil {
			f.t.Fatal(err)
		}
		if len(page.Comments) > MaxUserDataLimit || len(page.Reactions) > MaxUserDataLimit || len(page.Recordings) != 0 {
			f.t.Fatalf("page sizes %d/%d/%d", len(page.Comments), len(page.Reactions), len(page.Recordings))
		}
		for _, c := range page.Comments {
			comments = append(comments, fmt.Sprintf("%s/%v", c["annotationId"], c["commentId"]))
		}
		for _, r := range page.Reactions {
			reactions = append(reactions, fmt.Sprintf("%s/%s", r["annotationId"], r["icon"]))
		}
		if len(page.Next) == 0 {
			return comments, reactions, calls
		}
		if calls > 20 {
			f.t.Fatal("user data pages do not end")
		}
		cursors = page.Next
	}
}

func TestUserDataPagesWithoutGapsOrDuplicates(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	// 250 comments by alice over 25 annotations (10 each), plus comments by
	// others that do or do not involve her.
	want := map[string]bool{}
	for i := range 25 {
		id := fmt.Sprintf("a%02d", i)
		var data []CommentInput
		for j := range 10 {
			data = append(data, comment("alice", fmt.Sprintf("c%d", j)))
		}
		f.add("ws1", "doc1", id, data...)
		for j := 1; j <= 10; j++ {
			want[fmt.Sprintf("%s/%d", id, j)] = true
		}
	}
	f.add("ws1", "doc1", "m1", comment("bob", "hey {{alice}}"), comment("bob", "not her"))
	want["m1/1"] = true
	f.add("ws1", "doc1", "b1", comment("bob", "unrelated"))
	if _, err := f.svc.AddReaction(ctx, "ws1", ReactionAddRequest{OrganizationID: "org1", DocumentID: "doc1", AnnotationID: "b1", Icon: "👍", User: user("alice")}); err != nil {
		t.Fatal(err)
	}

	comments, reactions, calls := f.userPages("ws1", "alice")
	if calls != 3 || len(comments) != 251 {
		t.Fatalf("%d calls, %d comments", calls, len(comments))
	}
	seen := map[string]bool{}
	for _, k := range comments {
		if seen[k] || !want[k] {
			t.Fatalf("duplicate or unexpected comment %s", k)
		}
		seen[k] = true
	}
	if len(reactions) != 1 || reactions[0] != "b1/👍" {
		t.Fatalf("reactions = %v", reactions)
	}

	// Assigning b1 to alice makes her involved in its comment; deleting a
	// comment removes it from her data.
	if _, err := f.svc.Update(ctx, "ws1", UpdateRequest{OrganizationID: "org1", DocumentID: "doc1", AnnotationIDs: []string{"b1"},
		UpdatedData: []byte(`{"assignedTo":{"userId":"alice"}}`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.DeleteComments(ctx, "ws1", CommentsDeleteRequest{OrganizationID: "org1", DocumentID: "doc1", AnnotationID: "a00", CommentIDs: []int64{1}}); err != nil {
		t.Fatal(err)
	}
	comments, _, _ = f.userPages("ws1", "alice")
	found := map[string]bool{}
	for _, k := range comments {
		found[k] = true
	}
	if len(comments) != 251 || !found["b1/1"] || found["a00/1"] {
		t.Fatalf("after assign+delete: %d comments, b1/1=%v a00/1=%v", len(comments), found["b1/1"], found["a00/1"])
	}
}

func TestUserDataCursorsAndExhaustedArrays(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	f.add("ws1", "doc1", "a1", comment("alice", "one"), comment("alice", "two"), comment("alice", "three"))
	if _, err := f.svc.AddReaction(ctx, "ws1", ReactionAddRequest{OrganizationID: "org1", DocumentID: "doc1", AnnotationID: "a1", Icon: "👍", User: user("alice")}); err != nil {
		t.Fatal(err)
	}
	q := UserDataQuery{WorkspaceID: "ws1", OrganizationID: "org1", UserID: "alice", Limit: 2}
	page, err := f.svc.UserData(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Comments) != 2 || len(page.Reactions) != 1 || page.Next[ArrayComments] == "" {
		t.Fatalf("first page = %+v", page)
	}
	if _, ok := page.Next[ArrayReactions]; ok {
		t.Fatal("reactions are exhausted but have a cursor")
	}
	q.Cursors = page.Next
	page, err = f.svc.UserData(ctx, q)
	if err != nil || len(page.Comments) != 1 || len(page.Reactions) != 0 || page.Next != nil {
		t.Fatalf("second page = %+v %v", page, err)
	}
	if page.Comments[0]["commentText"] != "three" || page.Comments[0]["documentId"] != "doc1" {
		t.Fatalf("entry = %v", page.Comments[0])
	}
	q.Cursors = map[string]string{ArrayComments: "!!not base64"}
	if _, err := f.svc.UserData(ctx, q); !api.IsStatus(err, api.InvalidArgument) {
		t.Fatalf("bad cursor: %v", err)
	}
	// Another workspace sees nothing of alice in ws1.
	if page, _ := f.svc.UserData(ctx, UserDataQuery{WorkspaceID: "ws2", OrganizationID: "org1", UserID: "alice"}); len(page.Comments)+len(page.Reactions) != 0 {
		t.Fatalf("cross-workspace user data: %+v", page)
	}
}

// BenchmarkUserDataFirstPage reads the first page of a user with 1 000 and
// with 10 000 comments; the time per page should not grow with the total.
func BenchmarkUserDataFirstPage(b *testing.B) {
	for _, total := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("comments=%d", total), func(b *testing.B) {
			db := testenv.Mongo(b)
			svc := NewService(store.New(db), nil)
			if err := svc.EnsureIndexes(b.Context()); err != nil {
				b.Fatal(err)
			}
			const perAnnotation = 100
			for i := range total / perAnnotation {
				data := make([]CommentInput, perAnnotation)
				for j := range data {
					data[j] = comment("alice", fmt.Sprintf("comment %d/%d", i, j))
				}
				if _, err := svc.Add(b.Context(), "ws1", AddRequest{OrganizationID: "org1", DocumentID: "doc1",
					CommentAnnotations: []AnnotationInput{{CommentData: data}}}); err != nil {
					b.Fatal(err)
				}
			}
			q := UserDataQuery{WorkspaceID: "ws1", OrganizationID: "org1", UserID: "alice"}
			b.ResetTimer()
			for b.Loop() {
				page, err := svc.UserData(b.Context(), q)
				if err != nil || len(page.Comments) != MaxUserDataLimit {
					b.Fatalf("page of %d, %v", len(page.Comments), err)
				}
			}
		})
	}
}
