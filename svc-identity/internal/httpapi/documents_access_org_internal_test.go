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
	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// organizationAccess asks docaccess.OrganizationPath as svc-notify.
func (e *env) organizationAccess(ws, doc string) (docaccess.Reply, response) {
	e.t.Helper()
	r := e.callAs(notifyPrincipal, docaccess.OrganizationPath, map[string]any{"workspaceId": ws, "organizationId": "o1", "documentId": doc})
	if r.code != http.StatusOK {
		return docaccess.Reply{}, r
	}
	return r.accessReply(), r
}

func TestOrganizationDocumentAccessRoute(t *testing.T) {
	// The contract's bounds are the ones identity applies.
	if docaccess.MaxUsersWithAccess != identity.MaxUsersWithAccess || docaccess.MaxOrganizationUsersChecked != identity.MaxOrganizationUsersChecked {
		t.Fatalf("docaccess bounds %d/%d, identity's %d/%d", docaccess.MaxUsersWithAccess, docaccess.MaxOrganizationUsersChecked,
			identity.MaxUsersWithAccess, identity.MaxOrganizationUsersChecked)
	}
	e := newEnv(t)
	e.addUsers("ws1", map[string]any{"organizationId": "o1", "documentId": "d1"}, "writer")
	e.addUsers("ws1", map[string]any{"organizationId": "o1"}, "member")
	e.ok("ws1", "/v2/organizations/documents/add", map[string]any{"organizationId": "o1",
		"documents": []any{map[string]any{"documentId": "secret", "accessType": "restricted"}}})

	before := e.records()
	// d1 is organizationPrivate: its writer and the organization's member.
	if got, r := e.organizationAccess("ws1", "d1"); !slices.Equal(got.UserIDs, []string{"member", "writer"}) || !got.DocumentFound {
		t.Fatalf("d1: %+v (%s), want [member writer], found", got, r.raw)
	}
	// Restricted: nobody has a grant of it.
	if got, r := e.organizationAccess("ws1", "secret"); len(got.UserIDs) != 0 || !got.DocumentFound {
		t.Fatalf("secret: %+v (%s), want nobody, found", got, r.raw)
	}
	// Another workspace has neither organization nor document.
	if got, r := e.organizationAccess("ws2", "d1"); r.code != http.StatusOK || len(got.UserIDs) != 0 || got.DocumentFound {
		t.Fatalf("d1 of ws2: %+v (%s), want nobody, not found", got, r.raw)
	}
	refused := map[string]map[string]any{
		"no workspace":    {"organizationId": "o1", "documentId": "d1"},
		"no organization": {"workspaceId": "ws1", "documentId": "d1"},
		"no document":     {"workspaceId": "ws1", "organizationId": "o1"},
		"user ids":        {"workspaceId": "ws1", "organizationId": "o1", "documentId": "d1", "userIds": []string{"member"}},
	}
	for name, body := range refused {
		if r := e.callAs(notifyPrincipal, docaccess.OrganizationPath, body); r.status() != string(api.InvalidArgument) {
			t.Errorf("%s: %d %s, want INVALID_ARGUMENT", name, r.code, r.raw)
		}
	}
	for _, p := range []string{internalauth.Workspace("ws1"), ""} {
		r := e.callAs(p, docaccess.OrganizationPath, map[string]any{"workspaceId": "ws1", "organizationId": "o1", "documentId": "d1"})
		if r.status() != string(api.PermissionDenied) {
			t.Errorf("principal %q: %d %s, want PERMISSION_DENIED", p, r.code, r.raw)
		}
	}
	if after := e.records(); !maps.Equal(before, after) {
		t.Fatalf("the access check wrote: %v → %v", before, after)
	}

	// More than MaxUsersWithAccess with access: a clear refusal, no list.
	many := make([]string, docaccess.MaxUsersWithAccess)
	for i := range many {
		many[i] = fmt.Sprintf("u%04d", i)
	}
	e.addUsers("ws1", map[string]any{"organizationId": "o1"}, many...)
	_, r := e.organizationAccess("ws1", "d1")
	if r.status() != string(api.FailedPrecondition) || !strings.Contains(r.raw, "more than 1000 users") || strings.Contains(r.raw, "u0001") {
		t.Fatalf("%d with access: %d %s, want FAILED_PRECONDITION naming the bound, listing nobody", docaccess.MaxUsersWithAccess+2, r.code, r.raw)
	}
	// The restricted document is still answered: few have access.
	if got, r := e.organizationAccess("ws1", "secret"); r.code != http.StatusOK || len(got.UserIDs) != 0 {
		t.Fatalf("secret among many users: %+v (%s)", got, r.raw)
	}
}
