package annotations_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/opencollab/backend/pkg/api"

	. "github.com/opencollab/backend/svc-content/internal/annotations"
)

// ensurer records what it was asked to create and answers err.
type ensurer struct {
	calls []string
	err   error
}

func (e *ensurer) Ensure(_ context.Context, ws, org, doc string, createOrg, createDoc bool) error {
	e.calls = append(e.calls, fmt.Sprint(ws, "/", org, "/", doc, " ", createOrg, " ", createDoc))
	return e.err
}

// An add's createOrganization and createDocument are passed to svc-identity
// before anything is written; its refusal refuses the add.
func TestAddsEnsureTheirScope(t *testing.T) {
	f := newFixture(t)
	e := &ensurer{}
	f.svc.WithScope(e)
	if _, err := f.svc.Add(t.Context(), "ws1", AddRequest{OrganizationID: "org1", DocumentID: "doc1", CreateOrganization: true, CreateDocument: true,
		CommentAnnotations: []AnnotationInput{{AnnotationID: "a1", CommentData: []CommentInput{comment("alice", "x")}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.AddComments(t.Context(), "ws1", CommentsAddRequest{OrganizationID: "org1", DocumentID: "doc1", AnnotationID: "a1",
		CreateDocument: true, CommentData: []CommentInput{comment("bob", "y")}}); err != nil {
		t.Fatal(err)
	}
	if want := "[ws1/org1/doc1 true true ws1/org1/doc1 false true]"; fmt.Sprint(e.calls) != want {
		t.Fatalf("asked %v, want %s", e.calls, want)
	}

	e.err = api.Errorf(api.NotFound, "organization org2 does not exist; pass createOrganization: true to create it")
	_, err := f.svc.Add(t.Context(), "ws1", AddRequest{OrganizationID: "org2", DocumentID: "doc2", CreateDocument: true,
		CommentAnnotations: []AnnotationInput{{AnnotationID: "a2", CommentData: []CommentInput{comment("alice", "x")}}}})
	if !api.IsStatus(err, api.NotFound) {
		t.Fatalf("refused ensure: %v, want its NOT_FOUND", err)
	}
	_, err = f.svc.AddComments(t.Context(), "ws1", CommentsAddRequest{OrganizationID: "org1", DocumentID: "doc1", AnnotationID: "a1",
		CreateDocument: true, CommentData: []CommentInput{comment("bob", "z")}})
	if !api.IsStatus(err, api.NotFound) {
		t.Fatalf("refused ensure on comments/add: %v", err)
	}
	if n := f.count("comment_annotations", nil); n != 1 {
		t.Fatalf("%d annotations, want only a1", n)
	}
	if a := f.one("ws1", "a1"); len(a.Comments) != 2 {
		t.Fatalf("a1 has %d comments, want 2", len(a.Comments))
	}
}
