package httpapi_test

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/docaccess"
	"github.com/opencollab/backend/pkg/internalauth"
)

// notifyPrincipal is svc-notify, one of the callers of docaccess.Path.
var notifyPrincipal = internalauth.Service("notify")

// documentAccess asks docaccess.Path as svc-notify and decodes the reply.
func (e *env) documentAccess(body map[string]any) docaccess.Reply {
	e.t.Helper()
	r := e.callAs(notifyPrincipal, docaccess.Path, body)
	if r.code != http.StatusOK {
		e.t.Fatalf("document access: %d %s", r.code, r.raw)
	}
	return r.accessReply()
}

// accessReply decodes the result.data of either docaccess route.
func (r response) accessReply() docaccess.Reply {
	out := docaccess.Reply{UserIDs: []string{}, DocumentFound: r.dataMap()["documentFound"].(bool)}
	for _, id := range r.dataMap()["userIds"].([]any) {
		out.UserIDs = append(out.UserIDs, id.(string))
	}
	return out
}

func accessQuery(ws, doc string, users ...string) map[string]any {
	return map[string]any{"workspaceId": ws, "organizationId": "o1", "documentId": doc, "userIds": users}
}

func TestDocumentAccessRoute(t *testing.T) {
	e := newEnv(t)
	e.addUsers("ws1", map[string]any{"organizationId": "o1", "documentId": "d1"}, "writer")
	e.addUsers("ws1", map[string]any{"organizationId": "o1"}, "member")
	e.ok("ws1", "/v2/organizations/documents/add", map[string]any{"organizationId": "o1",
		"documents": []any{map[string]any{"documentId": "secret", "accessType": "restricted"}}})

	got := e.documentAccess(accessQuery("ws1", "d1", "outsider", "writer", "member"))
	if !slices.Equal(got.UserIDs, []string{"writer", "member"}) || !got.DocumentFound {
		t.Fatalf("d1: %+v, want [writer member], found", got)
	}
	// A restricted document: the organization's members are out.
	got = e.documentAccess(accessQuery("ws1", "secret", "writer", "member"))
	if len(got.UserIDs) != 0 || !got.DocumentFound {
		t.Fatalf("secret: %+v, want nobody, found", got)
	}
	// A document the workspace does not have: nobody, not found.
	got = e.documentAccess(accessQuery("ws2", "d1", "writer"))
	if len(got.UserIDs) != 0 || got.DocumentFound {
		t.Fatalf("d1 of ws2: %+v, want nobody, not found", got)
	}
	// The bound is the contract's: docaccess.MaxUserIDs users, not one more.
	many := make([]string, docaccess.MaxUserIDs+1)
	for i := range many {
		many[i] = fmt.Sprint("u", i)
	}
	many[0] = "member"
	if got := e.documentAccess(accessQuery("ws1", "d1", many[:docaccess.MaxUserIDs]...)); !slices.Equal(got.UserIDs, []string{"member"}) {
		t.Fatalf("%d users: %+v", docaccess.MaxUserIDs, got)
	}
	before := e.records()
	refused := map[string]map[string]any{
		"too many users":  accessQuery("ws1", "d1", many...),
		"no users":        accessQuery("ws1", "d1"),
		"blank user":      accessQuery("ws1", "d1", ""),
		"no workspace":    accessQuery("", "d1", "member"),
		"no document":     accessQuery("ws1", "", "member"),
		"unknown field":   {"workspaceId": "ws1", "organizationId": "o1", "documentId": "d1", "userIds": []string{"member"}, "role": "x"},
		"no organization": {"workspaceId": "ws1", "documentId": "d1", "userIds": []string{"member"}},
	}
	for name, body := range refused {
		r := e.callAs(notifyPrincipal, docaccess.Path, body)
		if r.status() != string(api.InvalidArgument) {
			t.Errorf("%s: %d %s, want INVALID_ARGUMENT", name, r.code, r.raw)
		}
	}
	if r := e.callAs(notifyPrincipal, docaccess.Path, accessQuery("ws1", "d1", many...)); !strings.Contains(r.raw, "userIds") {
		t.Errorf("too many users: the refusal does not name userIds: %s", r.raw)
	}
	// Only services may ask: not a workspace, not an unsigned caller.
	for _, p := range []string{internalauth.Workspace("ws1"), ""} {
		if r := e.callAs(p, docaccess.Path, accessQuery("ws1", "d1", "member")); r.status() != string(api.PermissionDenied) {
			t.Errorf("principal %q: %d %s, want PERMISSION_DENIED", p, r.code, r.raw)
		}
	}
	if after := e.records(); !maps.Equal(before, after) {
		t.Fatalf("the access check wrote: %v → %v", before, after)
	}
}
