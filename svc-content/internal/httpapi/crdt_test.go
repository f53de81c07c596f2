package httpapi

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-content/internal/crdt"
)

// crdtEngine serves the CRDT routes for workspace ws1, as routes.go does
// behind the signature check.
func crdtEngine(t *testing.T) *gin.Engine {
	t.Helper()
	svc := crdt.NewService(testenv.Mongo(t), nil, crdt.Settings{})
	if err := svc.EnsureIndexes(t.Context()); err != nil {
		t.Fatal(err)
	}
	e := web.NewEngine(nil)
	e.Use(func(c *gin.Context) {
		ctx := internalauth.WithPrincipal(c.Request.Context(), internalauth.Workspace("ws1"))
		c.Request = c.Request.WithContext(ctx)
		c.Next()
	})
	crdtRoutes(e, svc)
	return e
}

type crdtReply struct {
	Code   int
	Result struct {
		Status  string            `json:"status"`
		Message string            `json:"message"`
		Data    []json.RawMessage `json:"data"`
	} `json:"result"`
	Error struct {
		Status  string `json:"status"`
		Message string `json:"message"`
	} `json:"error"`
	Raw string
}

func post(t *testing.T, e *gin.Engine, path, data string) crdtReply {
	t.Helper()
	w := httptest.NewRecorder()
	e.ServeHTTP(w, httptest.NewRequest(http.MethodPost, path, strings.NewReader(`{"data":`+data+`}`)))
	r := crdtReply{Code: w.Code, Raw: w.Body.String()}
	if err := json.Unmarshal(w.Body.Bytes(), &r); err != nil {
		t.Fatalf("%s: reply %q: %v", path, w.Body.String(), err)
	}
	return r
}

func TestCRDTAddGetUpdate(t *testing.T) {
	t.Parallel()
	e := crdtEngine(t)
	add := post(t, e, "/v2/crdt/add", `{"organizationId":"o1","documentId":"d1","editorId":"e1","type":"map","data":{"title":"中文 👍🏽","n.m":{"x":[1,2.5,null]}},"userId":"u1"}`)
	if add.Code != 200 || add.Result.Status != "success" || add.Result.Message == "" || strings.Contains(add.Raw, `"data"`) {
		t.Fatalf("add reply %d %s", add.Code, add.Raw)
	}

	get := post(t, e, "/v2/crdt/get", `{"organizationId":"o1","documentId":"d1","editorId":"e1"}`)
	if get.Code != 200 || len(get.Result.Data) != 1 {
		t.Fatalf("get reply %d %s", get.Code, get.Raw)
	}
	var view map[string]json.RawMessage
	if err := json.Unmarshal(get.Result.Data[0], &view); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"id": `"e1"`, "type": `"map"`, "contentKey": `"content"`, "lastUpdatedBy": `"u1"`, "sessionId": `null`,
		"data": `{"title":"中文 👍🏽","n.m":{"x":[1,2.5,null]}}`,
	}
	for k, v := range want {
		if string(view[k]) != v {
			t.Errorf("get %s = %s, want %s", k, view[k], v)
		}
	}
	var update, lastUpdate string
	_ = json.Unmarshal(view["update"], &update)
	_ = json.Unmarshal(view["lastUpdate"], &lastUpdate)
	if b, err := base64.StdEncoding.DecodeString(update); err != nil || len(b) < 10 {
		t.Errorf("update %q is not a base64 Yjs update", update)
	}
	if len(lastUpdate) != len("2006-01-02T15:04:05.000Z") || !strings.HasSuffix(lastUpdate, "Z") {
		t.Errorf("lastUpdate %q is not ISO-8601 UTC", lastUpdate)
	}
	if len(view) != 8 {
		t.Errorf("get record has keys %v", view)
	}

	upd := post(t, e, "/v2/crdt/update", `{"organizationId":"o1","documentId":"d1","editorId":"e1","type":"map","data":{"title":"new"}}`)
	if upd.Code != 200 || upd.Result.Status != "success" || strings.Contains(upd.Raw, `"data"`) {
		t.Fatalf("update reply %d %s", upd.Code, upd.Raw)
	}
	get = post(t, e, "/v2/crdt/get", `{"organizationId":"o1","documentId":"d1"}`)
	if len(get.Result.Data) != 1 || !strings.Contains(string(get.Result.Data[0]), `"data":{"title":"new"}`) ||
		!strings.Contains(string(get.Result.Data[0]), `"lastUpdatedBy":null`) {
		t.Fatalf("get after update: %s", get.Raw)
	}

	none := post(t, e, "/v2/crdt/get", `{"organizationId":"o1","documentId":"d1","editorId":"nope"}`)
	if none.Code != 200 || !strings.Contains(none.Raw, `"data":[]`) {
		t.Fatalf("get unknown editor: %s", none.Raw)
	}
}

func TestCRDTErrors(t *testing.T) {
	t.Parallel()
	e := crdtEngine(t)
	if r := post(t, e, "/v2/crdt/add", `{"organizationId":"o1","documentId":"d1","editorId":"e1","type":"xml","contentKey":"default","data":"<p>x</p>"}`); r.Code != 200 {
		t.Fatalf("add: %s", r.Raw)
	}
	const ids = `"organizationId":"o1","documentId":"d1",`
	tests := []struct {
		name, path, data string
		code             int
		status, inMsg    string
	}{
		{"add twice", "add", `{` + ids + `"editorId":"e1","type":"text","data":"x"}`, 409, "ALREADY_EXISTS", "e1"},
		{"add without editorId", "add", `{` + ids + `"type":"text","data":"x"}`, 400, "INVALID_ARGUMENT", "editorId"},
		{"add with empty editorId", "add", `{` + ids + `"editorId":"","type":"text","data":"x"}`, 400, "INVALID_ARGUMENT", "editorId"},
		{"add without organizationId", "add", `{"documentId":"d1","editorId":"e2","type":"text","data":"x"}`, 400, "INVALID_ARGUMENT", "organizationId"},
		{"add without data", "add", `{` + ids + `"editorId":"e2","type":"text"}`, 400, "INVALID_ARGUMENT", "data"},
		{"add without type", "add", `{` + ids + `"editorId":"e2","data":"x"}`, 400, "INVALID_ARGUMENT", "type"},
		{"add unknown type", "add", `{` + ids + `"editorId":"e2","type":"tree","data":"x"}`, 400, "INVALID_ARGUMENT", "type"},
		{"text with object", "add", `{` + ids + `"editorId":"e2","type":"text","data":{}}`, 400, "INVALID_ARGUMENT", "data must be a string for type text"},
		{"text with array", "add", `{` + ids + `"editorId":"e2","type":"text","data":["x"]}`, 400, "INVALID_ARGUMENT", "data must be a string for type text"},
		{"text with number", "add", `{` + ids + `"editorId":"e2","type":"text","data":1}`, 400, "INVALID_ARGUMENT", "data must be a string for type text"},
		{"text with null", "add", `{` + ids + `"editorId":"e2","type":"text","data":null}`, 400, "INVALID_ARGUMENT", "data must be a string for type text"},
		{"xml with object", "add", `{` + ids + `"editorId":"e2","type":"xml","data":{"a":1}}`, 400, "INVALID_ARGUMENT", "data must be a string for type xml"},
		{"xml not markup", "add", `{` + ids + `"editorId":"e2","type":"xml","data":"a < b"}`, 400, "INVALID_ARGUMENT", "HTML/XML"},
		{"map with array", "add", `{` + ids + `"editorId":"e2","type":"map","data":[1]}`, 400, "INVALID_ARGUMENT", "data must be an object for type map"},
		{"map with string", "add", `{` + ids + `"editorId":"e2","type":"map","data":"x"}`, 400, "INVALID_ARGUMENT", "data must be an object for type map"},
		{"map with dollar key", "add", `{` + ids + `"editorId":"e2","type":"map","data":{"$set":1}}`, 400, "INVALID_ARGUMENT", "$set"},
		{"array with object", "add", `{` + ids + `"editorId":"e2","type":"array","data":{"a":1}}`, 400, "INVALID_ARGUMENT", "data must be an array for type array"},
		{"array with boolean", "add", `{` + ids + `"editorId":"e2","type":"array","data":true}`, 400, "INVALID_ARGUMENT", "data must be an array for type array"},
		{"number out of range", "add", `{` + ids + `"editorId":"e2","type":"array","data":[1e999]}`, 400, "INVALID_ARGUMENT", "out of range"},
		{"empty contentKey", "add", `{` + ids + `"editorId":"e2","type":"text","data":"x","contentKey":""}`, 400, "INVALID_ARGUMENT", "contentKey"},
		{"dotted contentKey", "add", `{` + ids + `"editorId":"e2","type":"text","data":"x","contentKey":"a.b"}`, 400, "INVALID_ARGUMENT", "contentKey"},
		{"dollar contentKey", "add", `{` + ids + `"editorId":"e2","type":"text","data":"x","contentKey":"$a"}`, 400, "INVALID_ARGUMENT", "contentKey"},
		{"update missing", "update", `{` + ids + `"editorId":"e9","type":"text","data":"x"}`, 404, "NOT_FOUND", "e9"},
		{"update without editorId", "update", `{` + ids + `"type":"text","data":"x"}`, 400, "INVALID_ARGUMENT", "editorId"},
		{"update other type", "update", `{` + ids + `"editorId":"e1","type":"text","data":"x"}`, 400, "INVALID_ARGUMENT", "type"},
		{"update data mismatch", "update", `{` + ids + `"editorId":"e1","type":"xml","data":["x"]}`, 400, "INVALID_ARGUMENT", "data must be a string for type xml"},
		{"update other contentKey", "update", `{` + ids + `"editorId":"e1","type":"xml","data":"x","contentKey":"content"}`, 400, "INVALID_ARGUMENT", "contentKey"},
		{"get without documentId", "get", `{"organizationId":"o1"}`, 400, "INVALID_ARGUMENT", "documentId"},
		{"update not base64", "update", `{` + ids + `"editorId":"e1","update":"!!"}`, 400, "INVALID_ARGUMENT", "update is not base64"},
		{"update malformed", "update", `{` + ids + `"editorId":"e1","update":"AQID"}`, 400, "INVALID_ARGUMENT", "not a Yjs update"},
		{"update unknown editor", "update", `{` + ids + `"editorId":"e9","update":"AAA="}`, 404, "NOT_FOUND", "e9"},
		{"update with data and update", "update", `{` + ids + `"editorId":"e1","type":"xml","data":"<p>y</p>","update":"AAA="}`, 400, "INVALID_ARGUMENT", "not both"},
		{"add with update", "add", `{` + ids + `"editorId":"e2","type":"text","data":"x","update":"AAA="}`, 400, "INVALID_ARGUMENT", "update"},
		{"unknown field", "update", `{` + ids + `"editorId":"e1","type":"xml","data":"x","upd":"AAA="}`, 400, "INVALID_ARGUMENT", "unknown field upd"},
		{"get unknown format", "get", `{` + ids + `"format":"html"}`, 400, "INVALID_ARGUMENT", "format"},
		{"get stateVector not base64", "get", `{` + ids + `"format":"yjs","stateVector":"%%"}`, 400, "INVALID_ARGUMENT", "stateVector is not base64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := post(t, e, "/v2/crdt/"+tt.path, tt.data)
			if r.Code != tt.code || r.Error.Status != tt.status || !strings.Contains(r.Error.Message, tt.inMsg) {
				t.Fatalf("reply %d %s; want %d %s containing %q", r.Code, r.Raw, tt.code, tt.status, tt.inMsg)
			}
		})
	}
	get := post(t, e, "/v2/crdt/get", `{"organizationId":"o1","documentId":"d1"}`)
	if len(get.Result.Data) != 1 || !strings.Contains(string(get.Result.Data[0]), `"data":"<p>x</p>"`) ||
		!strings.Contains(string(get.Result.Data[0]), `"contentKey":"default"`) {
		t.Fatalf("the failed calls changed the stored data: %s", get.Raw)
	}

	// Without contentKey an update keeps the stored key.
	if r := post(t, e, "/v2/crdt/update", `{`+ids+`"editorId":"e1","type":"xml","data":"<h1>y</h1>"}`); r.Code != 200 {
		t.Fatalf("update keeping contentKey: %s", r.Raw)
	}
}
