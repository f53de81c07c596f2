package httpapi_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/folderdocs"
	"github.com/opencollab/backend/pkg/internalauth"
)

// The route as svc-content calls it: the folder's documents by id, an
// unknown folder not found, bad bodies refused, and services only.
func TestFolderDocumentsRoute(t *testing.T) {
	e := newEnv(t)
	e.ok("ws1", "/v2/organizations/documents/add", map[string]any{"organizationId": "o1", "createOrganization": true,
		"folderId": "f1", "createFolder": true, "documents": []any{map[string]any{"documentId": "d2"}, map[string]any{"documentId": "d1"}}})
	content := internalauth.Service("content")
	query := func(ws, folder string) map[string]any {
		return map[string]any{"workspaceId": ws, "organizationId": "o1", "folderId": folder}
	}
	for _, tc := range []struct {
		ws, folder, want string
	}{
		{"ws1", "f1", "[d1 d2] true"},
		{"ws1", "ghost", "[] false"},
		{"ws2", "f1", "[] false"},
	} {
		r := e.callAs(content, folderdocs.Path, query(tc.ws, tc.folder))
		if r.code != http.StatusOK {
			t.Fatalf("%s/%s: %d %s", tc.ws, tc.folder, r.code, r.raw)
		}
		if got := fmt.Sprint(r.dataMap()["documentIds"], " ", r.dataMap()["folderFound"]); got != tc.want {
			t.Errorf("%s/%s: %s, want %s", tc.ws, tc.folder, got, tc.want)
		}
	}
	for name, body := range map[string]map[string]any{
		"no folder":     query("ws1", ""),
		"no workspace":  query("", "f1"),
		"unknown field": {"workspaceId": "ws1", "organizationId": "o1", "folderId": "f1", "recursive": true},
	} {
		if r := e.callAs(content, folderdocs.Path, body); r.status() != string(api.InvalidArgument) {
			t.Errorf("%s: %d %s, want INVALID_ARGUMENT", name, r.code, r.raw)
		}
	}
	for _, p := range []string{internalauth.Workspace("ws1"), ""} {
		if r := e.callAs(p, folderdocs.Path, query("ws1", "f1")); r.status() != string(api.PermissionDenied) {
			t.Errorf("principal %q: %d %s, want PERMISSION_DENIED", p, r.code, r.raw)
		}
	}
}
