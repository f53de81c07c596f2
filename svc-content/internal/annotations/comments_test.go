package annotations_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/events/eventstest"
	"github.com/opencollab/backend/pkg/mongodb"

	. "github.com/opencollab/backend/svc-content/internal/annotations"
	"github.com/opencollab/backend/svc-content/internal/store"
)

func TestCommentsAddGetUpdateDelete(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	f.add("ws1", "doc1", "a1", comment("alice", "root"))
	f.rec.Reset()

	newIDs, err := f.svc.AddComments(ctx, "ws1", CommentsAddRequest{OrganizationID: "org1", DocumentID: "doc1", AnnotationID: "a1",
		CommentData: []CommentInput{comment("bob", "reply"), {CommentID: ptr(int64(7)), From: user("carol"), CommentText: "seven"}, comment("bob", "after")}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(newIDs, []int64{2, 7, 8}) {
		t.Fatalf("new comment ids = %v", newIDs)
	}
	if got := f.rec.Types(); !slices.Equal(got, []string{EventCommentAdd, EventCommentAdd, EventCommentAdd}) {
		t.Fatalf("events = %v", got)
	}
	if tc := eventData(t, f.rec, 1)["targetComment"].(map[string]any); tc["commentId"] != float64(7) {
		t.Fatalf("target comment = %v", tc)
	}

	got, err := f.svc.GetComments(ctx, "ws1", CommentsGetRequest{OrganizationID: "org1", DocumentID: "doc1", AnnotationID: "a1", CommentIDs: []int64{7, 99, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].CommentText != "seven" || got[1] != nil || got[2].CommentID != 1 {
		t.Fatalf("get by ids = %+v", got)
	}
	got, _ = f.svc.GetComments(ctx, "ws1", CommentsGetRequest{OrganizationID: "org1", DocumentID: "doc1", AnnotationID: "a1", UserIDs: []string{"bob"}})
	if len(got) != 2 || got[0].CommentID != 2 || got[1].CommentID != 8 {
		t.Fatalf("get by author = %+v", got)
	}

	upd, err := f.svc.UpdateComments(ctx, "ws1", CommentsUpdateRequest{OrganizationID: "org1", DocumentID: "doc1", AnnotationID: "a1",
		CommentIDs: []int64{2, 404}, UpdatedData: &CommentUpdate{CommentText: ptr("now for {{dave}}")}})
	if err != nil {
		t.Fatal(err)
	}
	if !upd["2"].Success || upd["2"].ID != 2 || upd["404"].Success || upd["404"].ID != 404 {
		t.Fatalf("update results = %+v", upd)
	}
	a := f.one("ws1", "a1")
	c := a.Comments[1]
	if c.Status != "updated" || c.CommentText != "now for {{dave}}" || !slices.Equal(UserIDs(c.To), []string{"dave"}) {
		t.Fatalf("updated comment = %+v", c)
	}
	if !slices.Contains(a.MentionedUserIDs, "dave") {
		t.Fatalf("mentioned = %v", a.MentionedUserIDs)
	}

	del, err := f.svc.DeleteComments(ctx, "ws1", CommentsDeleteRequest{OrganizationID: "org1", DocumentID: "doc1", AnnotationID: "a1", CommentIDs: []int64{7, 404}})
	if err != nil || !del["7"].Success || del["404"].Success {
		t.Fatalf("delete = %+v %v", del, err)
	}
	// Ids are never reused, even after a deletion.
	more, _ := f.svc.AddComments(ctx, "ws1", CommentsAddRequest{OrganizationID: "org1", DocumentID: "doc1", AnnotationID: "a1",
		CommentData: []CommentInput{comment("bob", "again")}})
	if !slices.Equal(more, []int64{9}) {
		t.Fatalf("id after delete = %v", more)
	}
	del, _ = f.svc.DeleteComments(ctx, "ws1", CommentsDeleteRequest{OrganizationID: "org1", DocumentID: "doc1", AnnotationID: "a1"})
	if len(del) != 4 || len(f.one("ws1", "a1").Comments) != 0 {
		t.Fatalf("delete all = %+v", del)
	}
	types := f.rec.Types()
	if types[3] != EventCommentUpdate || types[4] != EventCommentDelete || types[len(types)-1] != EventCommentDelete {
		t.Fatalf("events = %v", types)
	}
}

func TestCommentsRefusals(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	f.add("ws1", "doc1", "a1", comment("alice", "root"))
	addTo := func(doc, annotation string, c CommentInput) error {
		_, err := f.svc.AddComments(ctx, "ws1", CommentsAddRequest{OrganizationID: "org1", DocumentID: doc, AnnotationID: annotation, CommentData: []CommentInput{c}})
		return err
	}
	tests := []struct {
		name string
		call func() error
		want api.Status
	}{
		{"existing comment id", func() error { return addTo("doc1", "a1", CommentInput{CommentID: ptr(int64(1)), From: user("bob")}) }, api.InvalidArgument},
		{"no author", func() error { return addTo("doc1", "a1", CommentInput{CommentText: "x"}) }, api.InvalidArgument},
		{"unknown annotation", func() error { return addTo("doc1", "missing", comment("bob", "x")) }, api.NotFound},
		{"annotation of another document", func() error { return addTo("doc2", "a1", comment("bob", "x")) }, api.NotFound},
		{"empty update", func() error {
			_, err := f.svc.UpdateComments(ctx, "ws1", CommentsUpdateRequest{OrganizationID: "org1", DocumentID: "doc1", AnnotationID: "a1",
				CommentIDs: []int64{1}, UpdatedData: &CommentUpdate{}})
			return err
		}, api.InvalidArgument},
	}
	for _, tt := range tests {
		if err := tt.call(); !api.IsStatus(err, tt.want) {
			t.Errorf("%s: err = %v, want %s", tt.name, err, tt.want)
		}
	}
	if a := f.one("ws1", "a1"); len(a.Comments) != 1 || a.Comments[0].Status != "added" {
		t.Fatalf("refused calls changed the annotation: %+v", a.Comments)
	}
}

func TestConcurrentCommentAddsAreAllKept(t *testing.T) {
	f := newFixture(t)
	f.add("ws1", "doc1", "a1", comment("alice", "root"))
	const writers = 20
	addRepliesConcurrently(t, writers, f.svc)
	a := f.one("ws1", "a1")
	if len(a.Comments) != writers+1 {
		t.Fatalf("%d comments kept, want %d", len(a.Comments), writers+1)
	}
	seenIDs, seenTexts := map[int64]bool{}, map[string]bool{}
	for _, c := range a.Comments {
		seenIDs[c.CommentID], seenTexts[c.CommentText] = true, true
	}
	if len(seenIDs) != writers+1 || len(seenTexts) != writers+1 {
		t.Fatalf("duplicate ids or lost texts: %d ids, %d texts", len(seenIDs), len(seenTexts))
	}
	if len(a.InvolvedUserIDs) != writers+1 {
		t.Fatalf("involved = %v", a.InvolvedUserIDs)
	}
	if got := len(f.rec.Types()); got != writers+1 {
		t.Fatalf("%d events, want one per accepted comment", got)
	}
}

func TestReactionsToggleAndPublish(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	f.add("ws1", "doc1", "a1", comment("alice", "root"))
	f.rec.Reset()
	add := func(uid, icon string) ReactionResult {
		t.Helper()
		r, err := f.svc.AddReaction(ctx, "ws1", ReactionAddRequest{OrganizationID: "org1", DocumentID: "doc1", AnnotationID: "a1", Icon: icon, User: user(uid)})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	first := add("bob", "👍")
	if !strings.HasPrefix(first.ReactionID, "rxn_") {
		t.Fatalf("reaction id = %q", first.ReactionID)
	}
	if again := add("bob", "👍"); again.ReactionID != first.ReactionID {
		t.Fatal("reacting twice made a second reaction")
	}
	add("carol", "👍")
	add("carol", "HEART_FACE")
	a := f.one("ws1", "a1")
	if len(a.ReactionAnnotations) != 2 || len(a.ReactionAnnotations[0].FromUsers) != 2 || a.ReactionAnnotations[0].Type != "reaction" ||
		a.ReactionAnnotations[0].CommentAnnotationID != "a1" || !slices.Contains(a.InvolvedUserIDs, "carol") {
		t.Fatalf("reactions = %+v", a.ReactionAnnotations)
	}
	if got := f.rec.Types(); !slices.Equal(got, []string{EventReactionAdd, EventReactionAdd, EventReactionAdd}) {
		t.Fatalf("events = %v (a repeated reaction must not publish)", got)
	}

	del := func(uid, icon string) ReactionResult {
		t.Helper()
		r, err := f.svc.DeleteReaction(ctx, "ws1", ReactionDeleteRequest{OrganizationID: "org1", DocumentID: "doc1", AnnotationID: "a1", Icon: icon, UserID: uid})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := del("bob", "👍"); !*r.Removed || r.ReactionID != first.ReactionID {
		t.Fatalf("delete = %+v", r)
	}
	if r := del("bob", "👍"); *r.Removed {
		t.Fatal("removing a missing reaction reported removed")
	}
	del("carol", "HEART_FACE")
	a = f.one("ws1", "a1")
	if len(a.ReactionAnnotations) != 1 || len(a.ReactionAnnotations[0].FromUsers) != 1 {
		t.Fatalf("after deletes = %+v", a.ReactionAnnotations)
	}
	if got := f.rec.Types(); got[len(got)-1] != EventReactionDelete || len(got) != 5 {
		t.Fatalf("events = %v", got)
	}
	if _, err := f.svc.AddReaction(ctx, "ws1", ReactionAddRequest{OrganizationID: "org1", DocumentID: "doc1", AnnotationID: "a1", Icon: " ", User: user("x")}); !api.IsStatus(err, api.InvalidArgument) {
		t.Fatalf("blank icon: %v", err)
	}
}

// Two replicas on one MongoDB rely on the version guard of the write (their
// locks are their own): concurrent adds through both are all kept. Only
// on MongoDB: FerretDB applies a guarded replace as a read then a write,
// so there two replicas can lose an update (it runs as one process).
func TestConcurrentCommentAddsAcrossReplicasAreAllKept(t *testing.T) {
	f := newFixture(t)
	if ferret, err := mongodb.IsFerretDB(t.Context(), f.db); err != nil || ferret {
		t.Skipf("needs MongoDB, the test store is FerretDB (%v)", err)
	}
	other := NewService(store.New(f.db), &eventstest.Recorder{})
	if err := other.EnsureIndexes(t.Context()); err != nil {
		t.Fatal(err)
	}
	f.add("ws1", "doc1", "a1", comment("alice", "root"))
	const writers = 12
	addRepliesConcurrently(t, writers, f.svc, other)
	if a := f.one("ws1", "a1"); len(a.Comments) != writers+1 {
		t.Fatalf("%d comments kept, want %d", len(a.Comments), writers+1)
	}
}

// addRepliesConcurrently adds writers one-comment replies to annotation a1
// at once, spread over the services in turn, and fails on any error.
func addRepliesConcurrently(t *testing.T, writers int, svcs ...*Service) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for i := range writers {
		svc := svcs[i%len(svcs)]
		wg.Go(func() {
			_, err := svc.AddComments(t.Context(), "ws1", CommentsAddRequest{OrganizationID: "org1", DocumentID: "doc1", AnnotationID: "a1",
				CommentData: []CommentInput{comment(fmt.Sprintf("user%d", i), fmt.Sprintf("reply %d", i))}})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}
