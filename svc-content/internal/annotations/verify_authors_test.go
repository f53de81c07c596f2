package annotations_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/api"

	. "github.com/opencollab/backend/svc-content/internal/annotations"
	"github.com/opencollab/backend/svc-content/internal/store"
)

// accessTable stands in for svc-identity: the users with access to doc1
// (any other document is unknown), or err for every question.
type accessTable struct {
	users []string
	err   error

	mu    sync.Mutex
	asked [][]string // the users of each question
	scope []string   // workspace, organization and document of the last
}

func (a *accessTable) UsersWithAccess(_ context.Context, ws, org, doc string, users []string) ([]string, bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, slices.Clone(users))
	a.scope = []string{ws, org, doc}
	if a.err != nil {
		return nil, false, a.err
	}
	if doc != "doc1" {
		return []string{}, false, nil
	}
	out := []string{}
	for _, u := range users {
		if slices.Contains(a.users, u) {
			out = append(out, u)
		}
	}
	return out, true, nil
}

// written fails the test when anything was stored or published since the
// fixture held want annotations.
func (f *fixture) written(want int64) {
	f.t.Helper()
	if n := f.count(store.AnnotationsCollection, bson.M{}); n != want {
		f.t.Fatalf("%d annotations stored, want %d", n, want)
	}
	if int64(len(f.rec.Types())) != want {
		f.t.Fatalf("events %v, want %d", f.rec.Types(), want)
	}
}

func verifiedAdd(doc string, items ...AnnotationInput) AddRequest {
	return AddRequest{OrganizationID: "org1", DocumentID: doc, VerifyUserPermissions: true, CommentAnnotations: items}
}

func TestAddVerifiesEveryAuthor(t *testing.T) {
	f := newFixture(t)
	table := &accessTable{users: []string{"alice", "bob"}}
	f.svc.WithAccess(table)
	ctx := t.Context()

	// mallory wrote the second comment of the second annotation: refused
	// whole, naming her, nothing written.
	_, err := f.svc.Add(ctx, "ws1", verifiedAdd("doc1",
		AnnotationInput{AnnotationID: "a1", CommentData: []CommentInput{comment("alice", "x")}},
		AnnotationInput{AnnotationID: "a2", CommentData: []CommentInput{comment("bob", "y"), comment("mallory", "z"), comment("alice", "again")}}))
	if !api.IsStatus(err, api.PermissionDenied) || !strings.Contains(err.Error(), "mallory") || strings.Contains(err.Error(), "alice") {
		t.Fatalf("err = %v, want PERMISSION_DENIED naming mallory only", err)
	}
	if !slices.Equal(table.asked[0], []string{"alice", "bob", "mallory"}) || !slices.Equal(table.scope, []string{"ws1", "org1", "doc1"}) {
		t.Fatalf("identity was asked %v about %v", table.asked, table.scope)
	}
	f.written(0)

	// A document identity does not know: nobody has access.
	if _, err := f.svc.Add(ctx, "ws1", verifiedAdd("doc9", AnnotationInput{CommentData: []CommentInput{comment("alice", "x")}})); !api.IsStatus(err, api.PermissionDenied) ||
		!strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("unknown document: err = %v", err)
	}
	f.written(0)

	// Authors with access: written as without the check.
	res, err := f.svc.Add(ctx, "ws1", verifiedAdd("doc1", AnnotationInput{AnnotationID: "a1", CommentData: []CommentInput{comment("alice", "x"), comment("bob", "y")}}))
	if err != nil || !res["a1"].Success {
		t.Fatalf("add by alice and bob: %+v, %v", res, err)
	}
	f.written(1)

	// Comments: the same rule, checked before the annotation is touched.
	add := func(cs ...CommentInput) ([]int64, error) {
		return f.svc.AddComments(ctx, "ws1", CommentsAddRequest{OrganizationID: "org1", DocumentID: "doc1", AnnotationID: "a1",
			VerifyUserPermissions: true, CommentData: cs})
	}
	if _, err := add(comment("bob", "ok"), comment("eve", "no")); !api.IsStatus(err, api.PermissionDenied) || !strings.Contains(err.Error(), "eve") {
		t.Fatalf("comment by eve: err = %v, want PERMISSION_DENIED naming eve", err)
	}
	if a := f.one("ws1", "a1"); len(a.Comments) != 2 {
		t.Fatalf("a refused comments/add wrote: %d comments", len(a.Comments))
	}
	if ids, err := add(comment("bob", "ok")); err != nil || !slices.Equal(ids, []int64{3}) {
		t.Fatalf("comment by bob: %v, %v", ids, err)
	}

	// Without the field nobody is asked.
	asked := len(table.asked)
	f.add("ws1", "doc1", "a3", comment("mallory", "unverified"))
	if len(table.asked) != asked {
		t.Fatal("an add without verifyUserPermissions asked identity")
	}
}

func TestVerifyingAuthorsNeedsIdentity(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	comments := CommentsAddRequest{OrganizationID: "org1", DocumentID: "doc1", AnnotationID: "a1",
		VerifyUserPermissions: true, CommentData: []CommentInput{comment("alice", "x")}}
	// No checker at all, then one that cannot reach identity: UNAVAILABLE,
	// never an unchecked write.
	for name, setup := range map[string]func(){
		"not configured": func() {},
		"unreachable": func() {
			f.svc.WithAccess(&accessTable{err: api.Errorf(api.Unavailable, "svc-identity is unavailable")})
		},
	} {
		setup()
		if _, err := f.svc.Add(ctx, "ws1", verifiedAdd("doc1", AnnotationInput{CommentData: []CommentInput{comment("alice", "x")}})); !api.IsStatus(err, api.Unavailable) {
			t.Errorf("%s: add err = %v, want UNAVAILABLE", name, err)
		}
		if _, err := f.svc.AddComments(ctx, "ws1", comments); !api.IsStatus(err, api.Unavailable) {
			t.Errorf("%s: comments/add err = %v, want UNAVAILABLE", name, err)
		}
	}
	f.written(0)
}
