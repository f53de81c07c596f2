package httpapi_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/pagetoken"
	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-identity/internal/httpapi"
	"github.com/opencollab/backend/svc-identity/internal/identity"
	"github.com/opencollab/backend/svc-identity/internal/signing"
	"github.com/opencollab/backend/svc-identity/internal/store"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// env is the identity HTTP surface on a fresh database and Redis.
type env struct {
	t      *testing.T
	h      http.Handler
	db     *mongo.Database
	signer *internalauth.Signer
	now    time.Time
}

func newEnv(t *testing.T) *env {
	t.Helper()
	db := testenv.Mongo(t)
	st := store.New(db)
	if err := st.EnsureIndexes(t.Context()); err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, db: db, signer: internalauth.NewSigner("test-internal-secret"), now: time.Now()}
	clock := func() time.Time { return e.now }
	ids := identity.NewService(st, pagetoken.New(testenv.Redis(t), 0), clock)
	engine := web.NewEngine(nil)
	httpapi.Routes(engine, e.signer, ids, signing.NewSecretStore(db), clock, httpapi.Backends{})
	e.h = engine
	return e
}

// response is a decoded envelope.
type response struct {
	code int
	body map[string]any
	raw  string
}

// result is the success envelope's result object (nil on failure).
func (r response) result() map[string]any { m, _ := r.body["result"].(map[string]any); return m }

// data is result.data.
func (r response) data() any { return r.result()["data"] }

// dataMap is result.data as an object.
func (r response) dataMap() map[string]any { m, _ := r.data().(map[string]any); return m }

// item is result.data[key] as an object.
func (r response) item(key string) map[string]any {
	m, _ := r.dataMap()[key].(map[string]any)
	return m
}

// status is error.status ("" on success).
func (r response) status() string {
	e, _ := r.body["error"].(map[string]any)
	s, _ := e["status"].(string)
	return s
}

// call posts {"data": data} for workspace ws (data given as a string is
// sent as the raw body).
func (e *env) call(ws, path string, data any) response {
	e.t.Helper()
	var body []byte
	if s, ok := data.(string); ok {
		body = []byte(s)
	} else {
		var err error
		if body, err = json.Marshal(map[string]any{"data": data}); err != nil {
			e.t.Fatal(err)
		}
	}
	req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if ws != "" {
		e.signer.Sign(req.Header, internalauth.Workspace(ws))
	}
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	r := response{code: rec.Code, raw: rec.Body.String()}
	if err := json.Unmarshal(rec.Body.Bytes(), &r.body); err != nil {
		e.t.Fatalf("%s: response is not JSON: %q", path, rec.Body.String())
	}
	return r
}

// ok calls and fails the test unless the answer is a success envelope.
func (e *env) ok(ws, path string, data any) response {
	e.t.Helper()
	r := e.call(ws, path, data)
	if r.code != http.StatusOK || r.result()["status"] != "success" {
		e.t.Fatalf("%s: %d %s", path, r.code, r.raw)
	}
	return r
}

// fails calls and fails the test unless the answer is the given error.
func (e *env) fails(ws, path string, data any, status api.Status) response {
	e.t.Helper()
	r := e.call(ws, path, data)
	if r.status() != string(status) || r.code != api.HTTPStatus(status) {
		e.t.Fatalf("%s: got %d %s, want %s", path, r.code, r.raw, status)
	}
	if msg, _ := r.body["error"].(map[string]any)["message"].(string); msg == "" {
		e.t.Fatalf("%s: error without a message: %s", path, r.raw)
	}
	return r
}

// records counts the documents of every collection, to prove a refused
// request wrote nothing.
func (e *env) records() map[string]int64 {
	e.t.Helper()
	counts := map[string]int64{}
	for _, name := range []string{
		store.OrganizationsCollection, store.FoldersCollection, store.DocumentsCollection, store.UsersCollection,
		store.MembershipsCollection, store.GroupsCollection, store.GroupMembersCollection,
	} {
		n, err := e.db.Collection(name).CountDocuments(e.t.Context(), bson.M{})
		if err != nil {
			e.t.Fatal(err)
		}
		counts[name] = n
	}
	return counts
}

// addUsers adds users (ids only, named after themselves) at a scope.
func (e *env) addUsers(ws string, scope map[string]any, userIDs ...string) {
	e.t.Helper()
	users := make([]map[string]any, len(userIDs))
	for i, id := range userIDs {
		users[i] = map[string]any{"userId": id, "name": "Name " + id, "email": id + "@example.com"}
	}
	data := map[string]any{"users": users, "createDocument": true, "createFolder": true}
	for k, v := range scope {
		data[k] = v
	}
	e.ok(ws, "/v2/users/add", data)
}
