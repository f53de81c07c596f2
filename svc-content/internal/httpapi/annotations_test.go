package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/events/eventstest"
	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/pagetoken"
	"github.com/opencollab/backend/pkg/svcclient"
	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-content/internal/annotations"
	"github.com/opencollab/backend/svc-content/internal/store"
)

// annWorkspaceHeader names the workspace the test middleware acts for.
const annWorkspaceHeader = "X-Test-Workspace"

type annEnv struct {
	t   *testing.T
	h   http.Handler
	db  *mongo.Database
	pub *eventstest.Recorder
}

// newAnnEnv serves annotationRoutes behind a middleware that sets the
// workspace principal the gateway would have signed.
func newAnnEnv(t *testing.T, checker *features.Checker) *annEnv {
	t.Helper()
	db := testenv.Mongo(t)
	pub := &eventstest.Recorder{}
	svc := annotations.NewService(store.New(db), pub).WithPageTokens(pagetoken.New(testenv.Redis(t), 0))
	if err := svc.EnsureIndexes(t.Context()); err != nil {
		t.Fatal(err)
	}
	engine := web.NewEngine(nil)
	engine.Use(func(c *gin.Context) {
		if ws := c.GetHeader(annWorkspaceHeader); ws != "" {
			c.Request = c.Request.WithContext(internalauth.WithPrincipal(c.Request.Context(), internalauth.Workspace(ws)))
		}
		c.Next()
	})
	annotationRoutes(engine, svc, checker)
	return &annEnv{t: t, h: engine, db: db, pub: pub}
}

type annResponse struct {
	code int
	body map[string]any
	raw  string
}

func (r annResponse) result() map[string]any  { m, _ := r.body["result"].(map[string]any); return m }
func (r annResponse) data() any               { return r.result()["data"] }
func (r annResponse) dataMap() map[string]any { m, _ := r.data().(map[string]any); return m }
func (r annResponse) list() []any             { l, _ := r.data().([]any); return l }
func (r annResponse) errStatus() string {
	e, _ := r.body["error"].(map[string]any)
	s, _ := e["status"].(string)
	return s
}

// call posts {"data": data} (a string is sent as the raw body) for ws.
func (e *annEnv) call(ws, path string, data any) annResponse {
	e.t.Helper()
	body, ok := data.(string)
	if !ok {
		b, err := json.Marshal(map[string]any{"data": data})
		if err != nil {
			e.t.Fatal(err)
		}
		body = string(b)
	}
	req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader([]byte(body)))
	req.Header.Set("Content-Type", "application/json")
	if ws != "" {
		req.Header.Set(annWorkspaceHeader, ws)
	}
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	r := annResponse{code: rec.Code, raw: rec.Body.String()}
	if err := json.Unmarshal(rec.Body.Bytes(), &r.body); err != nil {
		e.t.Fatalf("%s: response is not JSON: %q", path, rec.Body.String())
	}
	return r
}

func (e *annEnv) ok(path string, data any) annResponse {
	e.t.Helper()
	r := e.call("ws1", path, data)
	if r.code != http.StatusOK || r.result()["status"] != "success" {
		e.t.Fatalf("%s: %d %s", path, r.code, r.raw)
	}
	return r
}

// stored counts the documents of the package's collections.
func (e *annEnv) stored() int64 {
	e.t.Helper()
	var total int64
	for _, c := range []string{store.AnnotationsCollection, store.FeedCollection, store.FeedRowsCollection, store.CountersCollection} {
		n, err := e.db.Collection(c).CountDocuments(e.t.Context(), bson.M{})
		if err != nil {
			e.t.Fatal(err)
		}
		total += n
	}
	return total
}

func annUser(id string) map[string]any { return map[string]any{"userId": id, "name": "User " + id} }

func annDoc(extra map[string]any) map[string]any {
	m := map[string]any{"organizationId": "org1", "documentId": "doc1"}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

const annPath = "/v2/commentannotations/"

func TestAnnotationOperationShapes(t *testing.T) {
	t.Parallel()
	e := newAnnEnv(t, features.NewChecker(nil, 0))
	add := e.ok(annPath+"add", annDoc(map[string]any{"commentAnnotations": []any{
		map[string]any{"annotationId": "a1", "location": map[string]any{"id": "L1"},
			"commentData": []any{map[string]any{"commentText": "hi {{bob}}", "commentHtml": "<b>hi</b>", "from": annUser("alice")}}},
		map[string]any{"commentData": []any{map[string]any{"commentText": "generated", "from": annUser("bob")}}},
	}}))
	a1 := add.dataMap()["a1"].(map[string]any)
	var gen map[string]any
	for k, v := range add.dataMap() {
		if k != "a1" {
			gen = v.(map[string]any)
			if gen["annotationId"] != k || strings.Contains(add.raw, "__svc_") {
				t.Fatalf("generated item keyed %q: %s", k, add.raw)
			}
		}
	}
	if a1["success"] != true || a1["annotationId"] != "a1" || fmt.Sprint(a1["commentIds"]) != "[1]" || gen["success"] != true {
		t.Fatalf("add data = %s", add.raw)
	}

	get := e.ok(annPath+"get", map[string]any{"organizationId": "org1", "annotationIds": []any{"a1", "missing"}})
	list := get.list()
	if len(list) != 2 || list[1] != nil {
		t.Fatalf("get data = %s", get.raw)
	}
	if _, has := get.result()["nextPageToken"]; has {
		t.Fatal("a last page carries a nextPageToken")
	}
	ann := list[0].(map[string]any)
	c0 := ann["comments"].([]any)[0].(map[string]any)
	if _, iso := c0["lastUpdated"].(string); !iso || c0["commentHtml"] != "<b>hi</b>" || ann["annotationNumber"] != float64(1) ||
		ann["status"].(map[string]any)["id"] != "OPEN" || ann["locationId"] == nil {
		t.Fatalf("annotation = %v", ann)
	}
	if !strings.Contains(get.raw, `"commentHtml":"<b>hi</b>"`) {
		t.Fatalf("HTML must be sent unescaped: %s", get.raw)
	}
	// The hosted product's thread fields: alice wrote, bob was mentioned.
	subs, _ := ann["subscribedUsers"].(map[string]any)
	var subscribed []string
	for _, v := range subs {
		sub := v.(map[string]any)
		if sub["type"] != "auto" {
			t.Fatalf("subscription = %v", sub)
		}
		subscribed = append(subscribed, sub["user"].(map[string]any)["userId"].(string))
	}
	slices.Sort(subscribed)
	if ann["annotationIndex"] != float64(1) || fmt.Sprint(subscribed) != "[alice bob]" ||
		fmt.Sprint(ann["unsubscribedUsers"]) != "map[]" || fmt.Sprint(ann["subscribedGroups"]) != "map[]" ||
		ann["visibilityConfig"].(map[string]any)["type"] != "public" {
		t.Fatalf("thread fields = %v", ann)
	}

	upd := e.ok(annPath+"update", annDoc(map[string]any{"annotationIds": []any{"a1", "nope"},
		"updatedData": map[string]any{"status": map[string]any{"id": "RESOLVED", "name": "Resolved", "type": "terminal"}}}))
	if r := upd.dataMap()["a1"].(map[string]any); r["success"] != true || r["id"] != "a1" || upd.dataMap()["nope"].(map[string]any)["success"] != false {
		t.Fatalf("update data = %s", upd.raw)
	}

	cadd := e.ok(annPath+"comments/add", annDoc(map[string]any{"annotationId": "a1",
		"commentData": []any{map[string]any{"commentText": "reply", "from": annUser("carol")}}}))
	if fmt.Sprint(cadd.data()) != "[2]" {
		t.Fatalf("comments/add data = %s", cadd.raw)
	}
	cget := e.ok(annPath+"comments/get", annDoc(map[string]any{"annotationId": "a1", "commentIds": []any{2, 42}}))
	if l := cget.list(); len(l) != 2 || l[0].(map[string]any)["commentText"] != "reply" || l[1] != nil {
		t.Fatalf("comments/get data = %s", cget.raw)
	}
	cupd := e.ok(annPath+"comments/update", annDoc(map[string]any{"annotationId": "a1", "commentIds": []any{2, 42},
		"updatedData": map[string]any{"commentText": "edited"}}))
	if r := cupd.dataMap()["2"].(map[string]any); r["success"] != true || r["id"] != float64(2) || cupd.dataMap()["42"].(map[string]any)["success"] != false {
		t.Fatalf("comments/update data = %s", cupd.raw)
	}

	radd := e.ok(annPath+"reactions/add", annDoc(map[string]any{"annotationId": "a1", "icon": "👍", "user": annUser("bob")}))
	rid, _ := radd.dataMap()["reactionId"].(string)
	if !strings.HasPrefix(rid, "rxn_") {
		t.Fatalf("reactions/add data = %s", radd.raw)
	}
	rdel := e.ok(annPath+"reactions/delete", annDoc(map[string]any{"annotationId": "a1", "icon": "👍", "userId": "bob"}))
	if rdel.dataMap()["reactionId"] != rid || rdel.dataMap()["removed"] != true {
		t.Fatalf("reactions/delete data = %s", rdel.raw)
	}

	cdel := e.ok(annPath+"comments/delete", annDoc(map[string]any{"annotationId": "a1", "commentIds": []any{2}}))
	if r := cdel.dataMap()["2"].(map[string]any); r["success"] != true || r["id"] != float64(2) {
		t.Fatalf("comments/delete data = %s", cdel.raw)
	}
	del := e.ok(annPath+"delete", map[string]any{"documentId": "doc1", "annotationIds": []any{"a1", "ghost"}})
	if del.dataMap()["a1"].(map[string]any)["success"] != true || del.dataMap()["ghost"].(map[string]any)["success"] != false {
		t.Fatalf("delete data = %s", del.raw)
	}
	want := "comment_annotation.add comment_annotation.add comment_annotation.status_change comment.add comment.update comment.reaction_add comment.reaction_delete comment.delete comment_annotation.delete"
	if got := strings.Join(e.pub.Types(), " "); got != want {
		t.Fatalf("events:\n got %s\nwant %s", got, want)
	}
}

// updateUsers over HTTP: the wire names of the request and the result.
func TestAnnotationUpdateUsersOverHTTP(t *testing.T) {
	e := newAnnEnv(t, nil)
	e.ok(annPath+"add", annDoc(map[string]any{"commentAnnotations": []any{
		map[string]any{"annotationId": "a1", "commentData": []any{map[string]any{"commentText": "x", "from": annUser("alice")}}}}}))
	upd := e.ok(annPath+"update", annDoc(map[string]any{"updateUsers": []any{map[string]any{
		"oldUser": map[string]any{"userId": "alice"}, "newUser": map[string]any{"userId": "al", "name": "Al", "email": "al@example.com"}}}}))
	if r, _ := upd.dataMap()["a1"].(map[string]any); r["success"] != true || r["id"] != "a1" {
		t.Fatalf("update data = %s", upd.raw)
	}
	got := e.ok(annPath+"get", annDoc(map[string]any{"annotationIds": []any{"a1"}})).list()
	from := got[0].(map[string]any)["from"].(map[string]any)
	if from["userId"] != "al" || from["name"] != "Al" || from["email"] != "al@example.com" {
		t.Fatalf("from after the rename = %v", from)
	}
}

func TestAnnotationOperationsRefuseBadInputAndWriteNothing(t *testing.T) {
	t.Parallel()
	e := newAnnEnv(t, features.NewChecker(nil, 0))
	item := func(extra map[string]any) map[string]any {
		it := map[string]any{"commentData": []any{map[string]any{"commentText": "x", "from": annUser("alice")}}}
		for k, v := range extra {
			it[k] = v
		}
		return annDoc(map[string]any{"commentAnnotations": []any{it}})
	}
	tests := []struct {
		name, path string
		body       any
		want       string
	}{
		{"malformed", "add", `{"data":{"organizationId":`, "malformed"},
		{"no organization", "add", map[string]any{"documentId": "d", "commentAnnotations": []any{}}, "organizationId"},
		{"annotations not a list", "add", annDoc(map[string]any{"commentAnnotations": map[string]any{}}), "commentAnnotations"},
		{"empty commentData", "add", item(map[string]any{"commentData": []any{}}), "commentData"},
		{"fractional commentId", "add", item(map[string]any{"commentData": []any{map[string]any{"commentId": 1.5, "from": annUser("a")}}}), "commentId"},
		{"author without id", "add", item(map[string]any{"commentData": []any{map[string]any{"from": map[string]any{"name": "x"}}}}), "from"},
		{"dollar key", "add", item(map[string]any{"context": map[string]any{"$set": 1}}), "$"},
		{"dotted key", "add", item(map[string]any{"context": map[string]any{"a.b": 1}}), "'.'"},
		{"colon id", "add", item(map[string]any{"annotationId": "x:y"}), "':'"},
		{"unknown type", "add", item(map[string]any{"type": "poll"}), "type"},
		{"get without organization", "get", map[string]any{}, "organizationId"},
		{"get two agent filters", "get", map[string]any{"organizationId": "org1", "agentId": "x", "agentComments": true}, "at most one agent filter"},
		{"add agent without reason", "add", item(map[string]any{"commentData": []any{map[string]any{"from": annUser("a"), "agent": map[string]any{"agentSource": "external", "agentId": "x", "agentName": "X"}}}}), "agent.reason"},
		{"delete agentUrls without a page", "delete", annDoc(map[string]any{"agentUrls": []any{"not a url"}}), "agentUrls"},
		{"get page size", "get", map[string]any{"organizationId": "org1", "pageSize": 0}, "pageSize"},
		{"get bad token", "get", map[string]any{"organizationId": "org1", "pageToken": "nope"}, "pageToken"},
		{"update without filter", "update", annDoc(map[string]any{"updatedData": map[string]any{"context": map[string]any{}}}), "annotationIds"},
		{"update without data", "update", annDoc(map[string]any{"annotationIds": []any{"a"}}), "updatedData"},
		{"updateUsers not objects", "update", annDoc(map[string]any{"updateUsers": []any{"alice"}}), "updateUsers"},
		{"updateUsers without newUser", "update", annDoc(map[string]any{"updateUsers": []any{map[string]any{"oldUser": annUser("a")}}}), "updateUsers[0].newUser"},
		{"delete without document", "delete", map[string]any{"organizationId": "org1"}, "documentId"},
		{"comments/update without ids", "comments/update", annDoc(map[string]any{"annotationId": "a", "updatedData": map[string]any{"commentText": "x"}}), "commentIds"},
		{"comments/add without annotation", "comments/add", annDoc(map[string]any{"commentData": []any{map[string]any{"from": annUser("a")}}}), "annotationId"},
		{"reaction without icon", "reactions/add", annDoc(map[string]any{"annotationId": "a", "user": annUser("a")}), "icon"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.call("ws1", annPath+tt.path, tt.body)
			msg, _ := r.body["error"].(map[string]any)["message"].(string)
			if r.code != http.StatusBadRequest || r.errStatus() != string(api.InvalidArgument) || !strings.Contains(msg, tt.want) {
				t.Fatalf("got %d %s, want INVALID_ARGUMENT mentioning %q", r.code, r.raw, tt.want)
			}
		})
	}
	// An annotations service without svc-identity cannot verify authors:
	// UNAVAILABLE, never an unchecked write.
	for path, body := range map[string]map[string]any{
		"add":          item(map[string]any{}),
		"comments/add": annDoc(map[string]any{"annotationId": "a", "commentData": []any{map[string]any{"from": annUser("a")}}}),
	} {
		body["verifyUserPermissions"] = true
		if r := e.call("ws1", annPath+path, body); r.code != http.StatusServiceUnavailable || r.errStatus() != string(api.Unavailable) {
			t.Errorf("%s with verifyUserPermissions and no identity: %d %s", path, r.code, r.raw)
		}
	}
	if n := e.stored(); n != 0 || len(e.pub.Types()) != 0 {
		t.Fatalf("refused requests wrote %d records and %d events", n, len(e.pub.Types()))
	}

	if r := e.call("ws1", annPath+"comments/add", annDoc(map[string]any{"annotationId": "ghost",
		"commentData": []any{map[string]any{"from": annUser("a")}}})); r.code != http.StatusNotFound || r.errStatus() != string(api.NotFound) {
		t.Fatalf("comment on a missing annotation: %d %s", r.code, r.raw)
	}
	if r := e.call("", annPath+"add", item(nil)); r.errStatus() != string(api.PermissionDenied) {
		t.Fatalf("no workspace principal: %d %s", r.code, r.raw)
	}
}

func TestAnnotationGetPagesOverHTTP(t *testing.T) {
	t.Parallel()
	e := newAnnEnv(t, features.NewChecker(nil, 0))
	for i := range 7 {
		e.ok(annPath+"add", annDoc(map[string]any{"commentAnnotations": []any{map[string]any{"annotationId": fmt.Sprintf("a%d", i),
			"commentData": []any{map[string]any{"commentText": "x", "from": annUser("alice")}}}}}))
	}
	e.ok(annPath+"add", map[string]any{"organizationId": "org1", "documentId": "doc1", "commentAnnotations": []any{map[string]any{
		"annotationId": "other", "commentData": []any{map[string]any{"from": annUser("alice")}}}}})
	r := e.call("ws2", annPath+"add", annDoc(map[string]any{"commentAnnotations": []any{map[string]any{
		"annotationId": "foreign", "commentData": []any{map[string]any{"from": annUser("eve")}}}}}))
	if r.code != http.StatusOK {
		t.Fatal(r.raw)
	}
	seen := map[string]bool{}
	req := map[string]any{"organizationId": "org1", "documentId": "doc1", "pageSize": 3}
	pages := 0
	for {
		pages++
		page := e.ok(annPath+"get", req)
		for _, a := range page.list() {
			id := a.(map[string]any)["annotationId"].(string)
			if seen[id] {
				t.Fatalf("%s on two pages", id)
			}
			seen[id] = true
		}
		tok, _ := page.result()["nextPageToken"].(string)
		if tok == "" {
			break
		}
		req["pageToken"] = tok
	}
	if pages != 3 || len(seen) != 8 || seen["foreign"] {
		t.Fatalf("%d pages, seen %v", pages, seen)
	}
}

func TestAnnotationQueriesNeedAdvancedQueries(t *testing.T) {
	t.Parallel()
	workspace := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"result":{"status":"success","message":"","data":{"workspaceId":"ws1","features":{"advancedQueries":false}}}}`))
	}))
	t.Cleanup(workspace.Close)
	signer := internalauth.NewSigner("test-internal-secret-0123456789")
	e := newAnnEnv(t, features.NewChecker(svcclient.New("svc-workspace", workspace.URL, signer), 0))

	e.ok(annPath+"add", annDoc(map[string]any{"commentAnnotations": []any{map[string]any{"annotationId": "a1",
		"commentData": []any{map[string]any{"from": annUser("alice")}}}}}))
	for _, op := range []string{"get", "comments/get"} {
		r := e.call("ws1", annPath+op, annDoc(map[string]any{"annotationId": "a1"}))
		if r.errStatus() != string(api.FailedPrecondition) {
			t.Errorf("%s without advanced queries: %d %s", op, r.code, r.raw)
		}
	}
	// delete's agent filters are advanced queries too: NOT_FOUND, nothing
	// deleted; its plain filters still work.
	before := e.stored()
	if r := e.call("ws1", annPath+"delete", annDoc(map[string]any{"agentSuggestions": true})); r.errStatus() != string(api.NotFound) {
		t.Errorf("delete by agent without advanced queries: %d %s", r.code, r.raw)
	}
	if e.stored() != before {
		t.Fatal("a refused delete deleted")
	}
	if r := e.ok(annPath+"delete", annDoc(map[string]any{"annotationIds": []any{"a1"}})); r.dataMap()["a1"].(map[string]any)["success"] != true {
		t.Errorf("plain delete: %s", r.raw)
	}
}

func TestAnnotationCount(t *testing.T) {
	t.Parallel()
	e := newAnnEnv(t, features.NewChecker(nil, 0))
	e.ok(annPath+"add", annDoc(map[string]any{"commentAnnotations": []any{
		map[string]any{"commentData": []any{map[string]any{"commentText": "from alice", "from": annUser("alice")}}},
		map[string]any{"commentData": []any{map[string]any{"commentText": "from bob", "from": annUser("bob")}}},
		map[string]any{"status": map[string]any{"id": "RESOLVED", "name": "Resolved", "type": "terminal", "color": "#0f0", "lightColor": "#efe", "iconUrl": "https://example.com/i.svg"},
			"commentData": []any{map[string]any{"commentText": "done", "from": annUser("bob")}}},
	}}))
	r := e.ok(annPath+"count/get", map[string]any{"organizationId": "org1", "documentIds": []any{"doc1", "empty"}, "userId": "alice"})
	if fmt.Sprint(r.dataMap()["doc1"]) != "map[total:3 unread:2]" || fmt.Sprint(r.dataMap()["empty"]) != "map[total:0 unread:0]" {
		t.Fatalf("count = %s", r.raw)
	}
	r = e.ok(annPath+"count/get", map[string]any{"organizationId": "org1", "documentIds": []any{"doc1"}, "userId": "alice", "statusIds": []any{"OPEN"}})
	if fmt.Sprint(r.dataMap()["doc1"]) != "map[total:2 unread:1]" {
		t.Fatalf("count by status = %s", r.raw)
	}
	for _, bad := range []map[string]any{
		{"organizationId": "org1", "documentIds": []any{"doc1"}},
		{"organizationId": "org1", "userId": "a", "documentIds": make([]string, 31)},
		{"organizationId": "org1", "userId": "a", "documentIds": []any{""}},
	} {
		if r := e.call("ws1", annPath+"count/get", bad); r.code != http.StatusBadRequest {
			t.Fatalf("%v: got %d %s, want INVALID_ARGUMENT", bad, r.code, r.raw)
		}
	}
}
