package annotations_test

import (
	"fmt"
	"slices"
	"testing"

	. "github.com/opencollab/backend/svc-content/internal/annotations"
)

// An add that fails part way (feed entries written, only some annotations
// inserted) shows only the inserted annotations, in get and in the user
// feed, and the same request again completes it: every annotation once,
// every comment once in its users' feeds, distinct numbers.
func TestAddFailingPartWayShowsNothingHalfWrittenAndARetryCompletesIt(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	req := AddRequest{OrganizationID: "org1", DocumentID: "doc1"}
	for i := range 6 {
		req.CommentAnnotations = append(req.CommentAnnotations, AnnotationInput{
			AnnotationID: fmt.Sprintf("a%d", i),
			CommentData:  []CommentInput{comment("alice", "hi {{bob}}"), comment("bob", "yes")},
		})
	}
	// The first attempt stops after inserting three of six annotations.
	fresh, err := f.svc.NewAnnotations(ctx, Scope{"ws1", "org1", "doc1"}, req.CommentAnnotations, map[string]AddItemResult{})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.svc.FeedAddAll(ctx, fresh); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.InsertAnnotations(ctx, fresh[:3]); err != nil {
		t.Fatal(err)
	}
	if got := f.annotationIDs(); !slices.Equal(got, []string{"a0", "a1", "a2"}) {
		t.Fatalf("annotations after the failure = %v", got)
	}
	if comments, _, _ := f.userPages("ws1", "alice"); len(comments) != 3 {
		t.Fatalf("alice's feed after the failure lists %v, want the comments of a0-a2 only", comments)
	}

	res, err := f.svc.Add(ctx, "ws1", req)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range []bool{false, false, false, true, true, true} {
		if got := res[fmt.Sprintf("a%d", i)]; got.Success != r {
			t.Errorf("a%d on the retry = %+v, want success %v", i, got, r)
		}
	}
	if got := f.annotationIDs(); len(got) != 6 {
		t.Fatalf("annotations after the retry = %v", got)
	}
	comments, _, _ := f.userPages("ws1", "bob")
	slices.Sort(comments)
	if len(comments) != 12 || len(slices.Compact(comments)) != 12 {
		t.Fatalf("bob's feed after the retry = %v, want each of 12 comments once", comments)
	}
	numbers := map[int64]bool{}
	for i := range 6 {
		numbers[f.one("ws1", fmt.Sprintf("a%d", i)).AnnotationNumber] = true
	}
	if len(numbers) != 6 {
		t.Fatalf("annotation numbers %v are not distinct", numbers)
	}
}

func (f *fixture) annotationIDs() []string {
	f.t.Helper()
	list := f.get("ws1", GetRequest{DocumentID: "doc1"}).Data.([]*AnnotationView)
	ids := make([]string, len(list))
	for i, a := range list {
		ids[i] = a.AnnotationID
	}
	slices.Sort(ids)
	return ids
}
