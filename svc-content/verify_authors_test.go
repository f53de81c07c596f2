package svccontent_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	svccontent "github.com/opencollab/backend/svc-content"
	"github.com/opencollab/backend/svc-content/internal/store"
)

// verifiedAnnotation is a commentannotations/add body of o1/d1 whose one
// annotation has a comment by each author, with verifyUserPermissions.
func verifiedAnnotation(id string, authors ...string) map[string]any {
	comments := make([]any, len(authors))
	for i, a := range authors {
		comments[i] = map[string]any{"commentText": "by " + a, "from": map[string]any{"userId": a}}
	}
	return map[string]any{"organizationId": "o1", "documentId": "d1", "verifyUserPermissions": true,
		"commentAnnotations": []any{map[string]any{"annotationId": id, "commentData": comments}}}
}

func verifiedComment(annotation, author string) map[string]any {
	return map[string]any{"organizationId": "o1", "documentId": "d1", "annotationId": annotation, "verifyUserPermissions": true,
		"commentData": []any{map[string]any{"commentText": "by " + author, "from": map[string]any{"userId": author}}}}
}

// comments is the number of comments of the stored annotations.
func (e *env) comments() int {
	e.T.Helper()
	var docs []struct {
		Comments []any `bson:"comments"`
	}
	cur, err := e.DB.Collection(store.AnnotationsCollection).Find(e.T.Context(), bson.M{})
	if err != nil {
		e.T.Fatal(err)
	}
	if err := cur.All(e.T.Context(), &docs); err != nil {
		e.T.Fatal(err)
	}
	n := 0
	for _, d := range docs {
		n += len(d.Comments)
	}
	return n
}

func TestVerifiedAuthorsAreAskedOfIdentity(t *testing.T) {
	e := newEnv(t, nil)
	e.identity.access = map[string][]string{"d1": {"alice", "bob"}}

	e.OK(ws1, "/v2/commentannotations/add", verifiedAnnotation("a1", "alice", "bob"), nil)
	e.identity.mu.Lock()
	got := e.identity.asked
	e.identity.mu.Unlock()
	if len(got) != 1 || !slices.Equal(got[0].UserIDs, []string{"alice", "bob"}) ||
		got[0].WorkspaceID != "ws1" || got[0].OrganizationID != "o1" || got[0].DocumentID != "d1" {
		t.Fatalf("identity was asked %+v", got)
	}
	r := e.Fails(ws1, "/v2/commentannotations/add", verifiedAnnotation("a2", "alice", "mallory"), http.StatusForbidden, "PERMISSION_DENIED")
	if !strings.Contains(r.Error.Message, "mallory") || strings.Contains(r.Error.Message, "alice") {
		t.Fatalf("refusal %q does not name mallory (only)", r.Error.Message)
	}
	e.OK(ws1, "/v2/commentannotations/comments/add", verifiedComment("a1", "bob"), nil)
	e.Fails(ws1, "/v2/commentannotations/comments/add", verifiedComment("a1", "mallory"), http.StatusForbidden, "PERMISSION_DENIED")
	if n := e.Count(store.AnnotationsCollection, bson.M{}); n != 1 || e.comments() != 3 {
		t.Fatalf("%d annotations with %d comments stored, want a1 with alice's, bob's and bob's", n, e.comments())
	}
}

func TestVerifiedAuthorsWithoutIdentity(t *testing.T) {
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	for name, url := range map[string]string{"no IDENTITY_URL": "", "identity down": down.URL} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, func(c *svccontent.Config) { c.IdentityURL = url })
			e.Fails(ws1, "/v2/commentannotations/add", verifiedAnnotation("a1", "alice"), http.StatusServiceUnavailable, "UNAVAILABLE")
			unverified := verifiedAnnotation("a1", "alice")
			delete(unverified, "verifyUserPermissions")
			if n := e.Count(store.AnnotationsCollection, bson.M{}); n != 0 {
				t.Fatalf("%d annotations stored without the check", n)
			}
			e.OK(ws1, "/v2/commentannotations/add", unverified, nil)
			e.Fails(ws1, "/v2/commentannotations/comments/add", verifiedComment("a1", "alice"), http.StatusServiceUnavailable, "UNAVAILABLE")
			if n := e.comments(); n != 1 {
				t.Fatalf("%d comments stored, want the unverified add's one", n)
			}
		})
	}
}
