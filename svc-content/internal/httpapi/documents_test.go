package httpapi

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-content/internal/locations"
)

const docTestWS = "ws_loc"

// docCreds knows one API key of docTestWS and one of another workspace.
type docCreds struct{}

func (docCreds) LookupCredentials(_ context.Context, apiKey string) (locations.Credentials, error) {
	switch apiKey {
	case "ak_mine":
		return locations.Credentials{WorkspaceID: docTestWS, TokenHashes: []string{internalauth.HashToken("at_mine")}}, nil
	case "ak_theirs":
		return locations.Credentials{WorkspaceID: "ws_other", TokenHashes: []string{internalauth.HashToken("at_mine")}}, nil
	}
	return locations.Credentials{}, api.Errorf(api.NotFound, "unknown key")
}

// docRewriter holds location "L1" on document "D1" and records calls.
type docRewriter struct {
	got []docRewrite
}

type docRewrite struct {
	ws, org, doc, oldID string
	newLoc              map[string]any
	merge               bool
}

func (r *docRewriter) RewriteLocation(_ context.Context, ws, org, doc, oldID string, newLoc map[string]any, merge bool) (int64, error) {
	r.got = append(r.got, docRewrite{ws, org, doc, oldID, newLoc, merge})
	if doc == "D1" && oldID == "L1" {
		return 1, nil
	}
	return 0, nil
}

var docSigner = internalauth.NewSigner("test-internal-secret-0123456789")

// docEngine serves the document operations behind the signature check,
// as Routes does.
func docEngine(rw locations.Rewriter) *gin.Engine {
	e := web.NewEngine(nil)
	g := e.Group("", docSigner.Authenticate(), internalauth.RequireWorkspace())
	g.POST("/v1/organizations/documents/locations/update", handleLocationsUpdate(locations.NewService(docCreds{}, rw)))
	// These fail in decoding and never reach their (nil) service.
	g.POST("/v2/organizations/documents/migrate", handleMigrationStart(nil))
	g.POST("/v2/organizations/documents/migrate/status", handleMigrationStatus(nil))
	internal := e.Group("", docSigner.Authenticate(), internalauth.RequireService())
	internal.POST(UserDataPath, handleUserData(nil))
	return e
}

type docReply struct {
	Code   int
	Result struct {
		Status  string          `json:"status"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"result"`
	Error struct {
		Status  string `json:"status"`
		Message string `json:"message"`
	} `json:"error"`
}

// docPost posts {"data": data} signed as principal.
func docPost(t *testing.T, e *gin.Engine, principal, path string, data any) docReply {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"data": data})
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(string(body)))
	docSigner.Sign(req.Header, principal)
	w := httptest.NewRecorder()
	e.ServeHTTP(w, req)
	r := docReply{Code: w.Code}
	if err := json.Unmarshal(w.Body.Bytes(), &r); err != nil {
		t.Fatalf("%s: reply %q: %v", path, w.Body.String(), err)
	}
	return r
}

func locationsBody(change func(m map[string]any)) map[string]any {
	m := map[string]any{
		"apiKey": "ak_mine", "authToken": "at_mine", "organizationId": "O1", "documentId": "D1",
		"migrate": map[string]any{
			"oldLocation": map[string]any{"id": "L1", "locationName": "One"},
			"newLocation": map[string]any{"id": "L2", "locationName": "Two", "version": map[string]any{"id": "v2"}},
		},
	}
	if change != nil {
		change(m)
	}
	return m
}

func TestLocationsUpdateHandler(t *testing.T) {
	t.Parallel()
	ws := internalauth.Workspace(docTestWS)
	tests := []struct {
		name      string
		principal string
		change    func(m map[string]any)
		code      int
		status    string // error status; "" for success
		wantMerge bool
		calls     int
	}{
		{"replace by default", ws, nil, 200, "", false, 1},
		{"merge true", ws, func(m map[string]any) { m["merge"] = true }, 200, "", true, 1},
		{"merge false", ws, func(m map[string]any) { m["merge"] = false }, 200, "", false, 1},
		{"unknown old location", ws, func(m map[string]any) {
			m["migrate"].(map[string]any)["oldLocation"] = map[string]any{"id": "L9"}
		}, 404, "NOT_FOUND", false, 1},
		{"api key of another workspace", ws, func(m map[string]any) { m["apiKey"] = "ak_theirs" }, 403, "PERMISSION_DENIED", false, 0},
		{"unknown api key", ws, func(m map[string]any) { m["apiKey"] = "ak_nope" }, 403, "PERMISSION_DENIED", false, 0},
		{"wrong auth token", ws, func(m map[string]any) { m["authToken"] = "at_theirs" }, 403, "PERMISSION_DENIED", false, 0},
		{"headers of another workspace", internalauth.Workspace("ws_other"), nil, 403, "PERMISSION_DENIED", false, 0},
		{"a service is not a workspace", internalauth.Service("identity"), nil, 403, "PERMISSION_DENIED", false, 0},
		{"apiKey missing", ws, func(m map[string]any) { delete(m, "apiKey") }, 400, "INVALID_ARGUMENT", false, 0},
		{"authToken missing", ws, func(m map[string]any) { delete(m, "authToken") }, 400, "INVALID_ARGUMENT", false, 0},
		{"documentId missing", ws, func(m map[string]any) { delete(m, "documentId") }, 400, "INVALID_ARGUMENT", false, 0},
		{"migrate missing", ws, func(m map[string]any) { delete(m, "migrate") }, 400, "INVALID_ARGUMENT", false, 0},
		{"newLocation missing", ws, func(m map[string]any) { delete(m["migrate"].(map[string]any), "newLocation") }, 400, "INVALID_ARGUMENT", false, 0},
		{"oldLocation without id", ws, func(m map[string]any) {
			m["migrate"].(map[string]any)["oldLocation"] = map[string]any{"locationName": "One"}
		}, 400, "INVALID_ARGUMENT", false, 0},
		{"merge of the wrong type", ws, func(m map[string]any) { m["merge"] = "yes" }, 400, "INVALID_ARGUMENT", false, 0},
		{"dollar key in newLocation", ws, func(m map[string]any) {
			m["migrate"].(map[string]any)["newLocation"] = map[string]any{"$set": 1}
		}, 400, "INVALID_ARGUMENT", false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rw := &docRewriter{}
			body := locationsBody(tt.change)
			r := docPost(t, docEngine(rw), tt.principal, "/v1/organizations/documents/locations/update", body)
			if r.Code != tt.code || r.Error.Status != tt.status {
				t.Fatalf("HTTP %d %s (%s), want %d %q", r.Code, r.Error.Status, r.Error.Message, tt.code, tt.status)
			}
			if tt.status == "" && (r.Result.Status != "success" || string(r.Result.Data) != "null") {
				t.Fatalf("result %+v, want success with data null", r.Result)
			}
			if len(rw.got) != tt.calls {
				t.Fatalf("rewriter called %d times, want %d", len(rw.got), tt.calls)
			}
			if tt.calls == 1 && tt.code == 200 {
				got := rw.got[0]
				wantNew := body["migrate"].(map[string]any)["newLocation"].(map[string]any)
				if got.ws != docTestWS || got.org != "O1" || got.doc != "D1" || got.oldID != "L1" || got.merge != tt.wantMerge ||
					len(got.newLoc) != len(wantNew) || got.newLoc["locationName"] != "Two" {
					t.Fatalf("rewriter got %+v", got)
				}
				if v, _ := got.newLoc["version"].(map[string]any); !maps.Equal(v, map[string]any{"id": "v2"}) {
					t.Fatalf("nested newLocation fields lost: %v", got.newLoc)
				}
			}
		})
	}
}

func TestDocumentOperationsValidate(t *testing.T) {
	t.Parallel()
	ws := internalauth.Workspace(docTestWS)
	svc := internalauth.Service("identity")
	tests := []struct {
		name, principal, path string
		data                  map[string]any
		field                 string
	}{
		{"migrate without organization", ws, "/v2/organizations/documents/migrate", map[string]any{"documentId": "a", "newDocumentId": "b"}, "organizationId"},
		{"migrate without document", ws, "/v2/organizations/documents/migrate", map[string]any{"organizationId": "o", "newDocumentId": "b"}, "documentId"},
		{"migrate without new document", ws, "/v2/organizations/documents/migrate", map[string]any{"organizationId": "o", "documentId": "a"}, "newDocumentId"},
		{"status without migration", ws, "/v2/organizations/documents/migrate/status", map[string]any{"organizationId": "o"}, "migrationId"},
		{"status without organization", ws, "/v2/organizations/documents/migrate/status", map[string]any{"migrationId": "m"}, "organizationId"},
		{"user data limit 0", svc, UserDataPath, map[string]any{"workspaceId": "w", "organizationId": "o", "userId": "u", "limit": 0}, "limit"},
		{"user data limit 101", svc, UserDataPath, map[string]any{"workspaceId": "w", "organizationId": "o", "userId": "u", "limit": 101}, "limit"},
		{"user data without user", svc, UserDataPath, map[string]any{"workspaceId": "w", "organizationId": "o"}, "userId"},
	}
	e := docEngine(&docRewriter{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := docPost(t, e, tt.principal, tt.path, tt.data)
			if r.Code != 400 || r.Error.Status != "INVALID_ARGUMENT" || !strings.Contains(r.Error.Message, tt.field) {
				t.Fatalf("HTTP %d %s %q, want INVALID_ARGUMENT naming %s", r.Code, r.Error.Status, r.Error.Message, tt.field)
			}
		})
	}
}
