package svcactivity_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/opencollab/backend/pkg/docmigrate"
	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/testenv"
	svcactivity "github.com/opencollab/backend/svc-activity"
)

const secret = "test-internal-secret-0123456789"

var (
	signer  = internalauth.NewSigner(secret)
	ws1     = internalauth.Workspace("ws1")
	ws2     = internalauth.Workspace("ws2")
	content = internalauth.Service("content")
)

type env struct {
	t   *testing.T
	h   http.Handler
	db  *mongo.Database
	rdb *redis.Client
}

func newEnv(t *testing.T, cfg svcactivity.Config) *env {
	t.Helper()
	e := &env{t: t, db: testenv.Mongo(t), rdb: testenv.Redis(t)}
	cfg.InternalSecret = secret
	svc, err := svcactivity.New(context.Background(), cfg, svcactivity.Deps{DB: e.db, Redis: e.rdb})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close) // registered last: runs before the stores go away
	e.h = svc.Handler()
	return e
}

// reply is either envelope, decoded loosely.
type reply struct {
	Result struct {
		Status    string          `json:"status"`
		Message   string          `json:"message"`
		Data      json.RawMessage `json:"data"`
		PageToken *string         `json:"pageToken"`
	} `json:"result"`
	Error struct {
		Status  string `json:"status"`
		Message string `json:"message"`
	} `json:"error"`
}

// call posts {"data": data} as principal.
func (e *env) call(principal, path string, data any) (int, reply) {
	e.t.Helper()
	body, _ := json.Marshal(map[string]any{"data": data})
	return e.callRaw(principal, path, body)
}

// callRaw posts body as is (json.Marshal would HTML-escape it).
func (e *env) callRaw(principal, path string, body []byte) (int, reply) {
	e.t.Helper()
	req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	signer.Sign(req.Header, principal)
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	var r reply
	if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil {
		e.t.Fatalf("%s: reply is not JSON: %s", path, rec.Body.String())
	}
	return rec.Code, r
}

// ok calls and decodes result.data into out, failing on an error reply.
func (e *env) ok(principal, path string, data, out any) reply {
	e.t.Helper()
	code, r := e.call(principal, path, data)
	if code != http.StatusOK || r.Result.Status != "success" {
		e.t.Fatalf("%s: HTTP %d %s: %s", path, code, r.Error.Status, r.Error.Message)
	}
	if out != nil {
		if err := json.Unmarshal(r.Result.Data, out); err != nil {
			e.t.Fatalf("%s: decode data %s: %v", path, r.Result.Data, err)
		}
	}
	return r
}

func (e *env) fails(principal, path string, data any, wantCode int, wantStatus string) reply {
	e.t.Helper()
	code, r := e.call(principal, path, data)
	if code != wantCode || r.Error.Status != wantStatus {
		e.t.Fatalf("%s: got HTTP %d %q (%s), want %d %s", path, code, r.Error.Status, r.Error.Message, wantCode, wantStatus)
	}
	return r
}

// act is an activity of the add body.
type act = map[string]any

func user(id string) map[string]any { return map[string]any{"userId": id, "name": "User " + id} }

func comment(id string) act {
	a := act{"featureType": "comment", "actionType": "comment.add", "actionUser": user("u1")}
	if id != "" {
		a["id"] = id
	}
	return a
}

func (e *env) add(principal, org, doc string, acts ...act) {
	e.t.Helper()
	e.ok(principal, "/v2/activities/add", map[string]any{"organizationId": org, "documentId": doc, "activities": acts}, nil)
}

// view is a returned record, decoded with the free-form fields raw.
type view struct {
	ID                         string          `json:"id"`
	FeatureType                string          `json:"featureType"`
	ActionType                 string          `json:"actionType"`
	ActionUser                 json.RawMessage `json:"actionUser"`
	TargetEntityID             string          `json:"targetEntityId"`
	TargetSubEntityID          string          `json:"targetSubEntityId"`
	Changes                    json.RawMessage `json:"changes"`
	EntityData                 json.RawMessage `json:"entityData"`
	EntityTargetData           json.RawMessage `json:"entityTargetData"`
	DisplayMessageTemplate     string          `json:"displayMessageTemplate"`
	DisplayMessageTemplateData json.RawMessage `json:"displayMessageTemplateData"`
	ActionIcon                 string          `json:"actionIcon"`
	Metadata                   struct {
		DocumentID     string `json:"documentId"`
		OrganizationID string `json:"organizationId"`
	} `json:"metadata"`
	Timestamp              int64 `json:"timestamp"`
	Immutable              bool  `json:"immutable"`
	IsActivityResolverUsed bool  `json:"isActivityResolverUsed"`
}

// get returns one page and its next token ("" on the last page).
func (e *env) get(principal string, q map[string]any) ([]view, string) {
	e.t.Helper()
	var page []view
	r := e.ok(principal, "/v2/activities/get", q, &page)
	if page == nil {
		e.t.Fatalf("get: data %s is not an array", r.Result.Data)
	}
	if r.Result.PageToken == nil {
		return page, ""
	}
	return page, *r.Result.PageToken
}

func ids(vs []view) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.ID
	}
	return out
}

type itemResult struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

func (e *env) count(filter bson.M) int64 {
	e.t.Helper()
	n, err := e.db.Collection("activities").CountDocuments(context.Background(), filter)
	if err != nil {
		e.t.Fatal(err)
	}
	return n
}

// published returns the events on the activity stream, oldest first.
func (e *env) published() []events.Event {
	e.t.Helper()
	msgs, err := e.rdb.XRange(context.Background(), events.Stream("activity"), "-", "+").Result()
	if err != nil {
		e.t.Fatal(err)
	}
	out := make([]events.Event, len(msgs))
	for i, m := range msgs {
		payload, _ := m.Values["event"].(string)
		if err := json.Unmarshal([]byte(payload), &out[i]); err != nil {
			e.t.Fatalf("stream entry %v: %v", m.Values, err)
		}
	}
	return out
}

func TestWrongPrincipal(t *testing.T) {
	e := newEnv(t, svcactivity.Config{})
	addBody := map[string]any{"organizationId": "o1", "documentId": "d1", "activities": []act{comment("a1")}}
	moveBody := map[string]any{"workspaceId": "ws1", "organizationId": "o1", "documentId": "d1", "newDocumentId": "d2"}
	tests := []struct {
		name, principal, path string
		data                  any
	}{
		{"service adds", content, "/v2/activities/add", addBody},
		{"operator adds", internalauth.Operator, "/v2/activities/add", addBody},
		{"workspace migrates", ws1, docmigrate.MigratePath, moveBody},
		{"workspace asks has-data", ws1, docmigrate.HasDataPath, moveBody},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.fails(tt.principal, tt.path, tt.data, http.StatusForbidden, "PERMISSION_DENIED")
		})
	}
	req := httptest.NewRequest(http.MethodPost, "/v2/activities/add", strings.NewReader(`{"data":{}}`))
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden {
		t.Fatalf("unsigned request: HTTP %d", rec.Code)
	}
	if n := e.count(bson.M{}); n != 0 {
		t.Fatalf("denied calls wrote %d records", n)
	}
}

func TestConfigValidate(t *testing.T) {
	long := strings.Repeat("s", 16)
	tests := []struct {
		name    string
		cfg     svcactivity.Config
		wantErr bool
	}{
		{"minimal", svcactivity.Config{InternalSecret: long}, false},
		{"with workspace", svcactivity.Config{InternalSecret: long, WorkspaceURL: "http://ws"}, false},
		{"short secret", svcactivity.Config{InternalSecret: long[:15]}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.cfg.Validate(); (err != nil) != tt.wantErr {
				t.Fatalf("Validate() = %v, wantErr %v", err, tt.wantErr)
			}
		})
	}
	if err := (&svcactivity.Config{}).ValidateStores(); err == nil {
		t.Fatal("ValidateStores accepted empty store addresses")
	}
}
