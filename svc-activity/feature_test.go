package svcactivity_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/docmigrate"
	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/service/servicetest"
	svcactivity "github.com/opencollab/backend/svc-activity"
)

// fakeWorkspace serves svc-workspace's settings route: the activity
// service is off for ws_off only.
func fakeWorkspace(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != features.SettingsPath {
			http.NotFound(w, r)
			return
		}
		if _, err := servicetest.Signer.Verify(r.Header); err != nil {
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"error":{"status":"PERMISSION_DENIED","message":"unsigned"}}`))
			return
		}
		var body struct {
			Data features.SettingsRequest `json:"data"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		data := features.SettingsResponse{WorkspaceID: body.Data.WorkspaceID, Features: map[features.Name]bool{
			features.ActivityService: body.Data.WorkspaceID != "ws_off",
		}}
		_ = json.NewEncoder(w).Encode(map[string]any{"result": map[string]any{"status": "success", "message": "ok", "data": data}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestActivitiesNeedTheFeature(t *testing.T) {
	e := newEnv(t, svcactivity.Config{WorkspaceURL: fakeWorkspace(t).URL})
	off, on := internalauth.Workspace("ws_off"), internalauth.Workspace("ws_on")
	bodies := map[string]map[string]any{
		"/v2/activities/add":    {"organizationId": "o1", "documentId": "d1", "activities": []act{comment("a1")}},
		"/v2/activities/update": {"organizationId": "o1", "activities": []map[string]any{{"id": "a1", "actionIcon": "x"}}},
		"/v2/activities/get":    {"organizationId": "o1"},
		"/v2/activities/delete": {"organizationId": "o1", "documentId": "d1"},
	}
	for path, body := range bodies {
		t.Run(path, func(t *testing.T) {
			e.Fails(off, path, body, http.StatusBadRequest, "FAILED_PRECONDITION")
			// Checked before decoding: even an invalid body gets the precondition.
			e.Fails(off, path, map[string]any{}, http.StatusBadRequest, "FAILED_PRECONDITION")
		})
	}
	if n := e.count(bson.M{}); n != 0 {
		t.Fatalf("a workspace without the feature wrote %d records", n)
	}
	e.add(on, "o1", "d1", comment("a1"))
	// The document hooks are service calls, not customer operations.
	var has docmigrate.HasData
	e.OK(content, docmigrate.HasDataPath, docmigrate.Document{WorkspaceID: "ws_on", OrganizationID: "o1", DocumentID: "d1"}, &has)
	if !has.HasData {
		t.Fatal("has-data misses the record of the enabled workspace")
	}
}

func TestFeatureUnknownAndUnreachable(t *testing.T) {
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	e := newEnv(t, svcactivity.Config{WorkspaceURL: down.URL})
	e.Fails(ws1, "/v2/activities/get", map[string]any{"organizationId": "o1"}, http.StatusServiceUnavailable, "UNAVAILABLE")
}
