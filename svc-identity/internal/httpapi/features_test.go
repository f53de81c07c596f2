package httpapi_test

import (
	"maps"
	"testing"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/pagetoken"
	"github.com/opencollab/backend/pkg/svcclient"
	"github.com/opencollab/backend/svc-identity/internal/httpapi"
	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// newFeatureEnv is identity asking a fake svc-workspace for switches:
// workspace "off" has advanced queries switched off, every other one on.
func newFeatureEnv(t *testing.T) (*env, *fakeService) {
	t.Helper()
	signer := internalauth.NewSigner("test-internal-secret")
	workspace := newFakeService(t, signer, features.SettingsPath, func(body map[string]any) (any, error) {
		ws, _ := body["workspaceId"].(string)
		return features.SettingsResponse{WorkspaceID: ws, Features: map[features.Name]bool{
			features.AdvancedQueries: ws != "off", features.ActivityService: true,
		}}, nil
	})
	e := newEnvWith(t, func(*identity.Service, *pagetoken.Store) httpapi.Backends {
		return httpapi.Backends{Features: features.NewChecker(svcclient.New("svc-workspace", workspace.url(), signer), 0)}
	})
	return e, workspace
}

func TestAdvancedQueriesSwitchGatesUsersGetAndFoldersUpdate(t *testing.T) {
	e, workspace := newFeatureEnv(t)
	for _, ws := range []string{"on", "off"} {
		// Operations outside advanced queries work either way.
		e.addUsers(ws, map[string]any{"organizationId": "o1"}, "u1")
		e.ok(ws, "/v2/organizations/folders/add", map[string]any{
			"organizationId": "o1", "folders": []any{map[string]any{"folderId": "a"}},
		})
	}
	rename := map[string]any{"organizationId": "o1", "folders": []any{map[string]any{"folderId": "a", "folderName": "Renamed"}}}
	list := map[string]any{"organizationId": "o1"}

	e.ok("on", "/v2/users/get", list)
	e.ok("on", "/v1/organizations/folders/update", rename)

	before := e.records()
	e.fails("off", "/v2/users/get", list, api.FailedPrecondition)
	e.fails("off", "/v1/organizations/folders/update", rename, api.FailedPrecondition)
	// The switch is checked before the body: even a malformed request
	// learns that the feature is off.
	e.fails("off", "/v1/organizations/folders/update", map[string]any{}, api.FailedPrecondition)
	folders := e.ok("off", "/v2/organizations/folders/get", list).data().([]any)
	if name := folders[0].(map[string]any)["folderName"]; name == "Renamed" {
		t.Fatal("folders/update changed a folder while advanced queries were off")
	}
	if after := e.records(); !maps.Equal(before, after) {
		t.Fatalf("records changed: %v → %v", before, after)
	}

	asked := workspace.received()
	if len(asked) == 0 {
		t.Fatal("svc-workspace was never asked")
	}
	for _, r := range asked {
		if r.Principal != internalauth.Service("features") {
			t.Fatalf("settings asked as %q", r.Principal)
		}
	}
}

func TestFeatureCheckUnavailableWhenWorkspaceIsDown(t *testing.T) {
	e, workspace := newFeatureEnv(t)
	workspace.srv.Close()
	e.fails("ws1", "/v2/users/get", map[string]any{"organizationId": "o1"}, api.Unavailable)
}
