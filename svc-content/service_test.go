package svccontent_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/service"
	svccontent "github.com/opencollab/backend/svc-content"
)

func TestMigrationEndToEnd(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	e.OK(ws1, "/v2/crdt/add", map[string]any{"organizationId": "o1", "documentId": "d1", "editorId": "e1", "type": "text", "data": "hello"}, nil)
	e.OK(ws1, "/v2/commentannotations/add", map[string]any{"organizationId": "o1", "documentId": "d1",
		"commentAnnotations": []any{map[string]any{
			"commentData": []any{map[string]any{"commentText": "hi", "from": map[string]any{"userId": "u1"}}},
		}}}, nil)

	var started struct {
		MigrationID string `json:"migrationId"`
	}
	e.OK(ws1, "/v2/organizations/documents/migrate", map[string]any{"organizationId": "o1", "documentId": "d1", "newDocumentId": "d2"}, &started)
	if started.MigrationID == "" {
		t.Fatal("no migrationId")
	}
	var status struct {
		MigrationID string `json:"migrationId"`
		Status      string `json:"status"`
		Error       string `json:"error"`
	}
	deadline := time.Now().Add(20 * time.Second)
	for status.Status != "completed" {
		if time.Now().After(deadline) {
			t.Fatalf("migration still %q", status.Status)
		}
		e.OK(ws1, "/v2/organizations/documents/migrate/status", map[string]any{"organizationId": "o1", "migrationId": started.MigrationID}, &status)
		if status.Status == "failed" {
			t.Fatalf("migration failed: %s", status.Error)
		}
		time.Sleep(20 * time.Millisecond)
	}

	for name, o := range map[string]*owner{"identity": e.identity, "notify": e.notify, "activity": e.activity} {
		if n := o.callCount(); n != 1 {
			t.Fatalf("%s called %d times", name, n)
		}
		if got := o.calls[0]; got["migrationId"] != started.MigrationID || got["workspaceId"] != "ws1" || got["newDocumentId"] != "d2" {
			t.Fatalf("%s got %v", name, got)
		}
	}
	var views []map[string]any
	e.OK(ws1, "/v2/crdt/get", map[string]any{"organizationId": "o1", "documentId": "d2"}, &views)
	if len(views) != 1 {
		t.Fatalf("d2 has %d editors after the migration, want 1", len(views))
	}
	// Both CRDT data and annotations left d1 (has-data asks both).
	for doc, want := range map[string]bool{"d1": false, "d2": true} {
		var has struct {
			HasData bool `json:"hasData"`
		}
		e.OK(caller, "/internal/documents/has-data", map[string]any{"workspaceId": "ws1", "organizationId": "o1", "documentId": doc}, &has)
		if has.HasData != want {
			t.Fatalf("has-data of %s = %v, want %v", doc, has.HasData, want)
		}
	}

	// d2 has data now: migrating another document onto it is refused.
	r := e.call(ws1, "/v2/organizations/documents/migrate", map[string]any{"organizationId": "o1", "documentId": "d3", "newDocumentId": "d2"})
	if r.Code != http.StatusConflict || r.Error.Status != "ALREADY_EXISTS" || !strings.Contains(r.Error.Message, "d2 already has data") {
		t.Fatalf("onto d2: HTTP %d %s %q", r.Code, r.Error.Status, r.Error.Message)
	}
	// Status is per workspace.
	r = e.call(internalauth.Workspace("ws2"), "/v2/organizations/documents/migrate/status", map[string]any{"organizationId": "o1", "migrationId": started.MigrationID})
	if r.Error.Status != "NOT_FOUND" {
		t.Fatalf("status from another workspace: %d %s", r.Code, r.Error.Status)
	}
}

func TestMigrationRefusedWhenAnOwnerHasData(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	e.activity.hasData = true
	r := e.call(ws1, "/v2/organizations/documents/migrate", map[string]any{"organizationId": "o1", "documentId": "d1", "newDocumentId": "d2"})
	if r.Error.Status != "ALREADY_EXISTS" {
		t.Fatalf("HTTP %d %s, want ALREADY_EXISTS", r.Code, r.Error.Status)
	}
}

func TestLocationsUpdateChecksInBodyCredentials(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	body := func(apiKey, token string) map[string]any {
		return map[string]any{"apiKey": apiKey, "authToken": token, "organizationId": "o1", "documentId": "d1",
			"migrate": map[string]any{"oldLocation": map[string]any{"id": "nowhere"}, "newLocation": map[string]any{"id": "l2"}}}
	}
	const path = "/v1/organizations/documents/locations/update"
	for _, tt := range []struct {
		name, principal, apiKey, token, want string
	}{
		{"valid credentials, unknown location", ws1, "ak_1", "at_1", "NOT_FOUND"},
		{"wrong token", ws1, "ak_1", "at_2", "PERMISSION_DENIED"},
		{"unknown key", ws1, "ak_2", "at_1", "PERMISSION_DENIED"},
		{"credentials of another workspace", internalauth.Workspace("ws2"), "ak_1", "at_1", "PERMISSION_DENIED"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if r := e.call(tt.principal, path, body(tt.apiKey, tt.token)); r.Error.Status != tt.want {
				t.Fatalf("HTTP %d %s (%s), want %s", r.Code, r.Error.Status, r.Error.Message, tt.want)
			}
		})
	}

	noWorkspace := newEnv(t, func(c *svccontent.Config) { c.WorkspaceURL = "" })
	if r := noWorkspace.call(ws1, path, body("ak_1", "at_1")); r.Error.Status != "UNAVAILABLE" {
		t.Fatalf("without WORKSPACE_URL: %d %s, want UNAVAILABLE (fail closed)", r.Code, r.Error.Status)
	}
}

// Locations live on comment annotations: an update reaches the stored
// location through the annotations service.
func TestLocationsUpdateRewritesAnnotationLocations(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	e.OK(ws1, "/v2/commentannotations/add", map[string]any{"organizationId": "o1", "documentId": "d1",
		"commentAnnotations": []any{map[string]any{
			"location":    map[string]any{"id": "L1", "locationName": "One"},
			"commentData": []any{map[string]any{"commentText": "hi", "from": map[string]any{"userId": "u1"}}},
		}}}, nil)
	update := func(oldID string, newLoc map[string]any, merge bool) reply {
		return e.call(ws1, "/v1/organizations/documents/locations/update", map[string]any{
			"apiKey": "ak_1", "authToken": "at_1", "organizationId": "o1", "documentId": "d1", "merge": merge,
			"migrate": map[string]any{"oldLocation": map[string]any{"id": oldID}, "newLocation": newLoc},
		})
	}
	steps := []struct {
		oldID  string
		newLoc map[string]any
		merge  bool
		want   string // error status, "" for success
	}{
		{"L1", map[string]any{"locationName": "Uno"}, true, ""}, // merge keeps the id
		{"L1", map[string]any{"id": "L2", "locationName": "Two"}, false, ""},
		{"L1", map[string]any{"id": "L3"}, false, "NOT_FOUND"}, // replaced: L1 is gone
		{"L2", map[string]any{"locationName": "Dos"}, true, ""},
	}
	for i, st := range steps {
		r := update(st.oldID, st.newLoc, st.merge)
		if r.Error.Status != st.want {
			t.Fatalf("step %d: HTTP %d %s (%s), want %q", i, r.Code, r.Error.Status, r.Error.Message, st.want)
		}
		if st.want == "" && string(r.Result.Data) != "null" {
			t.Fatalf("step %d: data %s, want null", i, r.Result.Data)
		}
	}
}

func TestInternalUserData(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	var page map[string]json.RawMessage
	e.OK(caller, "/internal/userdata/content", map[string]any{"workspaceId": "ws1", "organizationId": "o1", "userId": "u1", "limit": 10}, &page)
	for _, k := range []string{"comments", "reactions", "recordings"} {
		if string(page[k]) != "[]" {
			t.Fatalf("%s = %s, want []", k, page[k])
		}
	}
	if _, ok := page["next"]; ok {
		t.Fatalf("next present on an exhausted page: %s", page["next"])
	}
	if r := e.call(ws1, "/internal/userdata/content", map[string]any{"workspaceId": "ws1", "organizationId": "o1", "userId": "u1"}); r.Error.Status != "PERMISSION_DENIED" {
		t.Fatalf("a workspace called an internal route: %d %s", r.Code, r.Error.Status)
	}
}

func TestConfigValidate(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("s", 16)
	tests := []struct {
		name    string
		cfg     svccontent.Config
		wantErr bool
	}{
		{"minimal", svccontent.Config{Base: service.Base{InternalSecret: long}}, false},
		{"short secret", svccontent.Config{Base: service.Base{InternalSecret: long[:15]}}, true},
		{"service urls", svccontent.Config{Base: service.Base{InternalSecret: long}, IdentityURL: "http://identity:8080", MemoryURL: "https://memory/"}, false},
		{"url with path", svccontent.Config{Base: service.Base{InternalSecret: long}, NotifyURL: "http://notify:8080/api"}, true},
		{"url without scheme", svccontent.Config{Base: service.Base{InternalSecret: long}, ActivityURL: "activity:8080"}, true},
		{"lease too short", svccontent.Config{Base: service.Base{InternalSecret: long}, MigrationLease: 10 * time.Millisecond}, true},
		{"lease", svccontent.Config{Base: service.Base{InternalSecret: long}, MigrationLease: 5 * time.Second}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.cfg.Validate(); (err != nil) != tt.wantErr {
				t.Fatalf("Validate() = %v, wantErr %v", err, tt.wantErr)
			}
		})
	}
	if err := (&svccontent.Config{}).ValidateStores(); err == nil {
		t.Fatal("ValidateStores accepted empty store addresses")
	}
}
