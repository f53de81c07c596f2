package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/docscope"
	"github.com/opencollab/backend/pkg/internalauth"
)

// The route as svc-content and svc-notify call it: the document is then
// listed by documents/get; bad bodies are refused and only services may
// call.
func TestEnsureScopeRoute(t *testing.T) {
	e := newEnv(t)
	content := internalauth.Service("content")
	r := e.callAs(content, docscope.Path, map[string]any{"workspaceId": "ws1", "organizationId": "o1", "documentId": "d1",
		"createOrganization": true, "createDocument": true})
	if r.code != http.StatusOK {
		t.Fatalf("ensure: %d %s", r.code, r.raw)
	}
	got := e.ok("ws1", "/v2/organizations/documents/get", map[string]any{"organizationId": "o1", "documentIds": []string{"d1"}})
	if list, _ := got.data().([]any); len(list) != 1 || list[0].(map[string]any)["id"] != "d1" {
		t.Fatalf("documents/get after ensure: %s", got.raw)
	}
	for name, tc := range map[string]struct {
		body   map[string]any
		status api.Status
	}{
		"no document to create": {map[string]any{"workspaceId": "ws1", "organizationId": "o1", "createDocument": true}, api.InvalidArgument},
		"no workspace":          {map[string]any{"organizationId": "o1"}, api.InvalidArgument},
		"missing organization":  {map[string]any{"workspaceId": "ws1", "organizationId": "o9", "documentId": "d", "createDocument": true}, api.NotFound},
		"unknown field":         {map[string]any{"workspaceId": "ws1", "organizationId": "o1", "folderId": "f"}, api.InvalidArgument},
	} {
		if r := e.callAs(content, docscope.Path, tc.body); r.status() != string(tc.status) {
			t.Errorf("%s: %d %s, want %s", name, r.code, r.raw, tc.status)
		}
	}
	for _, p := range []string{internalauth.Workspace("ws1"), ""} {
		if r := e.callAs(p, docscope.Path, map[string]any{"workspaceId": "ws1", "organizationId": "o1"}); r.status() != string(api.PermissionDenied) {
			t.Errorf("principal %q: %d %s, want PERMISSION_DENIED", p, r.code, r.raw)
		}
	}
}
