package svcnotify_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/service/servicetest"
	svcnotify "github.com/opencollab/backend/svc-notify"
)

type configItem struct {
	Config struct {
		Inbox string `json:"inbox"`
		Email string `json:"email"`
	} `json:"config"`
	Metadata struct {
		OrganizationID string  `json:"organizationId"`
		APIKey         *string `json:"apiKey"`
		DocumentID     string  `json:"documentId"`
		UserID         string  `json:"userId"`
	} `json:"metadata"`
}

type setResult struct {
	Success    bool   `json:"success"`
	UserID     string `json:"userId"`
	DocumentID string `json:"documentId"`
	Message    string `json:"message"`
}

// configs returns "inbox/email" per document for userID.
func (e *env) configs(path, userID string, docs ...string) []string {
	e.T.Helper()
	var items []configItem
	e.OK(ws1, path, body{"organizationId": "o1", "userId": userID, "documentIds": docs}, &items)
	out := make([]string, len(items))
	for i, it := range items {
		m := it.Metadata
		if m.OrganizationID != "o1" || m.UserID != userID || m.DocumentID != docs[i] || m.APIKey == nil || *m.APIKey != "" {
			e.T.Fatalf("item %d metadata %+v", i, m)
		}
		out[i] = it.Config.Inbox + "/" + it.Config.Email
	}
	return out
}

func TestConfigDefaultsAndFallback(t *testing.T) {
	e := newEnv(t, svcnotify.Config{})
	check := func(step string, got, want []string) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: %v, want %v", step, got, want)
		}
	}
	check("never set", e.configs("/v1/notifications/config/get", "u1", "d1", "d2"), []string{"ALL/ALL", "ALL/ALL"})

	// v2 without documentIds: the user's organization-level default.
	var res map[string]setResult
	e.OK(ws1, "/v2/notifications/config/set", body{"organizationId": "o1", "userIds": []string{"u1"}, "config": body{"email": "NONE"}}, &res)
	if r := res["u1"]; !r.Success || r.UserID != "u1" || r.DocumentID != "" || r.Message == "" || len(res) != 1 {
		t.Fatalf("org-level set answered %+v", res)
	}
	check("org default", e.configs("/v2/notifications/config/get", "u1", "d1", "d2"), []string{"ALL/NONE", "ALL/NONE"})

	res = nil
	e.OK(ws1, "/v1/notifications/config/set", body{"organizationId": "o1", "userIds": []string{"u1", "u2"}, "documentIds": []string{"d1"},
		"config": body{"inbox": "MINE"}}, &res)
	if r := res["u2"]; !r.Success || r.UserID != "u2" || r.DocumentID != "d1" || len(res) != 2 {
		t.Fatalf("document set answered %+v", res)
	}
	// d1's inbox from its own config, its email from the org default.
	check("document over org default", e.configs("/v1/notifications/config/get", "u1", "d1", "d2"), []string{"MINE/NONE", "ALL/NONE"})
	check("another user", e.configs("/v1/notifications/config/get", "u2", "d1", "d2"), []string{"MINE/ALL", "ALL/ALL"})

	// Several documents: one result per user and document.
	res = nil
	e.OK(ws1, "/v2/notifications/config/set", body{"organizationId": "o1", "userIds": []string{"u3"}, "documentIds": []string{"d1", "d2"},
		"config": body{"inbox": "NONE", "slack": "ALL"}}, &res)
	if len(res) != 2 || res["u3/d1"].DocumentID != "d1" || res["u3/d2"].DocumentID != "d2" {
		t.Fatalf("multi-document set answered %+v", res)
	}
	check("multi-document set", e.configs("/v1/notifications/config/get", "u3", "d2", "d1"), []string{"NONE/ALL", "NONE/ALL"})

	var items []configItem
	e.OK(ws2, "/v1/notifications/config/get", body{"organizationId": "o1", "userId": "u1", "documentIds": []string{"d1"}}, &items)
	if items[0].Config.Inbox != "ALL" || items[0].Config.Email != "ALL" {
		t.Fatalf("ws2 reads ws1's config: %+v", items)
	}
}

func TestConfigInvalid(t *testing.T) {
	e := newEnv(t, svcnotify.Config{})
	docs31 := make([]string, 31)
	for i := range docs31 {
		docs31[i] = fmt.Sprint("d", i)
	}
	tests := []struct {
		name, path string
		b          body
	}{
		{"31 documents", "/v1/notifications/config/get", body{"organizationId": "o1", "userId": "u1", "documentIds": docs31}},
		{"no documents", "/v2/notifications/config/get", body{"organizationId": "o1", "userId": "u1"}},
		{"no user", "/v1/notifications/config/get", body{"organizationId": "o1", "documentIds": []string{"d1"}}},
		{"blank document", "/v1/notifications/config/get", body{"organizationId": "o1", "userId": "u1", "documentIds": []string{""}}},
		{"v1 set without documents", "/v1/notifications/config/set", body{"organizationId": "o1", "userIds": []string{"u1"}, "config": body{"inbox": "ALL"}}},
		{"set without users", "/v2/notifications/config/set", body{"organizationId": "o1", "config": body{"inbox": "ALL"}}},
		{"set without config", "/v2/notifications/config/set", body{"organizationId": "o1", "userIds": []string{"u1"}}},
		{"empty config", "/v2/notifications/config/set", body{"organizationId": "o1", "userIds": []string{"u1"}, "config": body{}}},
		{"unknown level", "/v2/notifications/config/set", body{"organizationId": "o1", "userIds": []string{"u1"}, "config": body{"email": "SOME"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.Fails(ws1, tt.path, tt.b, http.StatusBadRequest, "INVALID_ARGUMENT")
		})
	}
	if n, _ := e.DB.Collection("notification_configs").CountDocuments(t.Context(), map[string]any{}); n != 0 {
		t.Fatalf("invalid requests stored %d configs", n)
	}
}

// fakeWorkspace serves svc-workspace's settings route: ws_off has the
// notification config and advanced queries off.
func fakeWorkspace(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := servicetest.Signer.Verify(r.Header); err != nil || r.URL.Path != features.SettingsPath {
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"error":{"status":"PERMISSION_DENIED","message":"no"}}`))
			return
		}
		var req struct {
			Data features.SettingsRequest `json:"data"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		on := req.Data.WorkspaceID != "ws_off"
		data := features.SettingsResponse{WorkspaceID: req.Data.WorkspaceID, Features: map[features.Name]bool{
			features.NotificationConfig: on, features.AdvancedQueries: on,
		}}
		_ = json.NewEncoder(w).Encode(map[string]any{"result": map[string]any{"status": "success", "message": "ok", "data": data}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestFeatureSwitches(t *testing.T) {
	e := newEnv(t, svcnotify.Config{WorkspaceURL: fakeWorkspace(t).URL})
	off, on := internalauth.Workspace("ws_off"), internalauth.Workspace("ws_on")
	getCfg := body{"organizationId": "o1", "userId": "u1", "documentIds": []string{"d1"}}
	setCfg := body{"organizationId": "o1", "userIds": []string{"u1"}, "documentIds": []string{"d1"}, "config": body{"inbox": "NONE"}}
	gated := map[string]body{
		"/v1/notifications/config/get": getCfg,
		"/v2/notifications/config/get": getCfg,
		"/v1/notifications/config/set": setCfg,
		"/v2/notifications/config/set": setCfg,
		"/v2/notifications/get":        {"organizationId": "o1", "userId": "u1"},
	}
	for path, b := range gated {
		t.Run(path, func(t *testing.T) {
			e.Fails(off, path, b, http.StatusBadRequest, "FAILED_PRECONDITION")
			// Checked before decoding: even an invalid body gets the precondition.
			e.Fails(off, path, body{}, http.StatusBadRequest, "FAILED_PRECONDITION")
			e.OK(on, path, b, nil)
		})
	}
	// The rest does not need a feature.
	e.OK(off, "/v1/notifications/add", note("n1"), nil)
	e.OK(off, "/v1/notifications/get", body{"organizationId": "o1"}, nil)
	if n, _ := e.DB.Collection("notification_configs").CountDocuments(t.Context(), map[string]any{"workspaceId": "ws_off"}); n != 0 {
		t.Fatalf("a workspace without the feature stored %d configs", n)
	}
}

func TestFeatureUnknownAndUnreachable(t *testing.T) {
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	e := newEnv(t, svcnotify.Config{WorkspaceURL: down.URL})
	e.Fails(ws1, "/v1/notifications/config/get", body{"organizationId": "o1", "userId": "u1", "documentIds": []string{"d1"}},
		http.StatusServiceUnavailable, "UNAVAILABLE")
}
