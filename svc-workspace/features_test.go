package svcworkspace_test

import (
	"context"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/svcclient"
	svcworkspace "github.com/opencollab/backend/svc-workspace"
)

const (
	featuresUpdate = "/v2/workspace/features/update"
	featuresGet    = "/v2/workspace/features/get"
	settingsGet    = "/internal/settings/get"
)

type featuresReply struct {
	APIKey   string          `json:"apiKey"`
	Features map[string]bool `json:"features"`
}

type settingsReply struct {
	WorkspaceID string          `json:"workspaceId"`
	Features    map[string]bool `json:"features"`
}

func allEnabled() map[string]bool {
	return map[string]bool{"activityService": true, "notificationConfig": true, "advancedQueries": true, "advancedWebhooks": true}
}

func (e *env) features(apiKey string) map[string]bool {
	e.T.Helper()
	var r featuresReply
	e.OK(internalauth.Operator, featuresGet, map[string]any{"apiKey": apiKey}, &r)
	if r.APIKey != apiKey {
		e.T.Fatalf("features/get returned apiKey %q, want %q", r.APIKey, apiKey)
	}
	return r.Features
}

func (e *env) settings(workspaceID string) map[string]bool {
	e.T.Helper()
	var r settingsReply
	e.OK(internalauth.Service("features"), settingsGet, map[string]any{"workspaceId": workspaceID}, &r)
	if r.WorkspaceID != workspaceID {
		e.T.Fatalf("settings/get returned workspaceId %q, want %q", r.WorkspaceID, workspaceID)
	}
	return r.Features
}

func TestFeaturesAreEnabledUntilSwitchedOff(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcworkspace.Config{})
	c := e.createWorkspace(nil)
	if got := e.features(c.APIKey); !maps.Equal(got, allEnabled()) {
		t.Fatalf("new workspace features %v, want all enabled", got)
	}
	if got := e.settings(c.WorkspaceID); !maps.Equal(got, allEnabled()) {
		t.Fatalf("new workspace settings %v, want all enabled", got)
	}
}

func TestUpdateFeatures(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcworkspace.Config{})
	c := e.createWorkspace(nil)
	other := e.createWorkspace(nil)
	want := allEnabled()

	steps := []struct {
		name   string
		change map[string]any
	}{
		{"switch two off", map[string]any{"activityService": false, "advancedQueries": false}},
		{"switch one back on, leave the other off", map[string]any{"activityService": true}},
		{"set one to its current value", map[string]any{"advancedQueries": false}},
		{"switch the rest off", map[string]any{"notificationConfig": false, "advancedWebhooks": false}},
	}
	for _, st := range steps {
		for name, on := range st.change {
			want[name] = on.(bool)
		}
		var r featuresReply
		e.OK(internalauth.Operator, featuresUpdate, map[string]any{"apiKey": c.APIKey, "features": st.change}, &r)
		if r.APIKey != c.APIKey || !maps.Equal(r.Features, want) {
			t.Fatalf("%s: update returned %+v, want features %v", st.name, r, want)
		}
		if got := e.features(c.APIKey); !maps.Equal(got, want) {
			t.Fatalf("%s: features/get %v, want %v", st.name, got, want)
		}
		if got := e.settings(c.WorkspaceID); !maps.Equal(got, want) {
			t.Fatalf("%s: settings/get %v, want %v", st.name, got, want)
		}
	}
	if got := e.settings(other.WorkspaceID); !maps.Equal(got, allEnabled()) {
		t.Fatalf("another workspace's settings changed: %v", got)
	}
}

func TestFeaturesInvalidArgument(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcworkspace.Config{})
	c := e.createWorkspace(nil)
	tests := []struct {
		name, path, principal string
		data                  any
		field                 string
	}{
		{"update without apiKey", featuresUpdate, internalauth.Operator, map[string]any{"features": map[string]any{"activityService": false}}, "apiKey"},
		{"update without features", featuresUpdate, internalauth.Operator, map[string]any{"apiKey": c.APIKey}, "features"},
		{"update with empty features", featuresUpdate, internalauth.Operator, map[string]any{"apiKey": c.APIKey, "features": map[string]any{}}, "features"},
		{"update with an unknown feature", featuresUpdate, internalauth.Operator, map[string]any{"apiKey": c.APIKey, "features": map[string]any{"activityService": false, "teleport": true}}, "teleport"},
		{"update with a non-boolean switch", featuresUpdate, internalauth.Operator, map[string]any{"apiKey": c.APIKey, "features": map[string]any{"activityService": "off"}}, "features"},
		{"update with features not an object", featuresUpdate, internalauth.Operator, map[string]any{"apiKey": c.APIKey, "features": []string{"activityService"}}, "features"},
		{"get without apiKey", featuresGet, internalauth.Operator, map[string]any{}, "apiKey"},
		{"settings without workspaceId", settingsGet, gateway, map[string]any{}, "workspaceId"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.Fails(tt.principal, tt.path, tt.data, http.StatusBadRequest, "INVALID_ARGUMENT")
			if !strings.Contains(r.Error.Message, tt.field) {
				t.Fatalf("message %q does not name %s", r.Error.Message, tt.field)
			}
		})
	}
	// Nothing was written: the record has no settings at all.
	n, err := e.DB.Collection("workspaces").CountDocuments(context.Background(), bson.M{"settings": bson.M{"$exists": true}})
	if err != nil {
		t.Fatal(err)
	}
	if n != 0 || !maps.Equal(e.features(c.APIKey), allEnabled()) {
		t.Fatalf("invalid updates changed the settings (%d records with settings)", n)
	}
}

func TestFeaturesNotFound(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcworkspace.Config{})
	off := map[string]any{"activityService": false}
	tests := []struct {
		name, path, principal string
		data                  any
	}{
		{"update with unknown key", featuresUpdate, internalauth.Operator, map[string]any{"apiKey": "ak_nope", "features": off}},
		{"get with unknown key", featuresGet, internalauth.Operator, map[string]any{"apiKey": "ak_nope"}},
		{"settings of unknown workspace", settingsGet, gateway, map[string]any{"workspaceId": "ws_nope"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.Fails(tt.principal, tt.path, tt.data, http.StatusNotFound, "NOT_FOUND")
		})
	}
	n, err := e.DB.Collection("workspaces").CountDocuments(context.Background(), bson.M{})
	if err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("an update with an unknown key created %d workspaces", n)
	}
}

func TestFeaturesWrongPrincipal(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcworkspace.Config{})
	c := e.createWorkspace(nil)
	update := map[string]any{"apiKey": c.APIKey, "features": map[string]any{"activityService": false}}
	get := map[string]any{"apiKey": c.APIKey}
	settings := map[string]any{"workspaceId": c.WorkspaceID}
	tests := []struct {
		name, principal, path string
		data                  any
	}{
		{"workspace updates features", internalauth.Workspace(c.WorkspaceID), featuresUpdate, update},
		{"service updates features", gateway, featuresUpdate, update},
		{"unsigned updates features", "", featuresUpdate, update},
		{"workspace gets features", internalauth.Workspace(c.WorkspaceID), featuresGet, get},
		{"service gets features", gateway, featuresGet, get},
		{"operator gets settings", internalauth.Operator, settingsGet, settings},
		{"workspace gets settings", internalauth.Workspace(c.WorkspaceID), settingsGet, settings},
		{"unsigned gets settings", "", settingsGet, settings},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.Fails(tt.principal, tt.path, tt.data, http.StatusForbidden, "PERMISSION_DENIED")
		})
	}
	if got := e.features(c.APIKey); !maps.Equal(got, allEnabled()) {
		t.Fatalf("denied updates changed the features: %v", got)
	}
}

// TestFeatureCheckerReadsTheSettingsRoute runs pkg/features' Checker against
// this service: the two sides of the settings contract agree.
func TestFeatureCheckerReadsTheSettingsRoute(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, svcworkspace.Config{})
	c := e.createWorkspace(nil)
	srv := httptest.NewServer(e.H)
	t.Cleanup(srv.Close)
	// A TTL of a nanosecond makes every check ask the service.
	checker := features.NewChecker(svcclient.New("workspace", srv.URL, signer), time.Nanosecond)

	if err := checker.Require(ctx, c.WorkspaceID, features.AdvancedWebhooks); err != nil {
		t.Fatalf("before the switch: %v", err)
	}
	e.OK(internalauth.Operator, featuresUpdate, map[string]any{"apiKey": c.APIKey, "features": map[string]any{"advancedWebhooks": false}}, nil)
	if err := checker.Require(ctx, c.WorkspaceID, features.AdvancedWebhooks); !api.IsStatus(err, api.FailedPrecondition) {
		t.Fatalf("after switching off: %v, want FAILED_PRECONDITION", err)
	}
	if err := checker.Require(ctx, c.WorkspaceID, features.ActivityService); err != nil {
		t.Fatalf("untouched feature: %v", err)
	}
	if err := checker.Require(ctx, "ws_nope", features.ActivityService); !api.IsStatus(err, api.Unavailable) {
		t.Fatalf("unknown workspace: %v, want UNAVAILABLE", err)
	}
}
