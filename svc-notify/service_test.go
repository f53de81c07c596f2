package svcnotify_test

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
	svcnotify "github.com/opencollab/backend/svc-notify"
)

const secret = "test-internal-secret-0123456789"

var (
	signer   = internalauth.NewSigner(secret)
	ws1      = internalauth.Workspace("ws1")
	ws2      = internalauth.Workspace("ws2")
	identity = internalauth.Service("identity")
)

type env struct {
	t   *testing.T
	h   http.Handler
	db  *mongo.Database
	rdb *redis.Client
}

func newEnv(t *testing.T, cfg svcnotify.Config) *env {
	t.Helper()
	e := &env{t: t, db: testenv.Mongo(t), rdb: testenv.Redis(t)}
	cfg.InternalSecret = secret
	svc, err := svcnotify.New(context.Background(), cfg, svcnotify.Deps{DB: e.db, Redis: e.rdb})
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
	raw string
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
	r := reply{raw: rec.Body.String()}
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

func (e *env) count(filter bson.M) int64 {
	e.t.Helper()
	n, err := e.db.Collection("notifications").CountDocuments(context.Background(), filter)
	if err != nil {
		e.t.Fatal(err)
	}
	return n
}

// published returns the events on the notification stream, oldest first.
func (e *env) published() []events.Event {
	e.t.Helper()
	msgs, err := e.rdb.XRange(context.Background(), svcnotify.EventStream, "-", "+").Result()
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

func TestConfigValidate(t *testing.T) {
	long := strings.Repeat("s", 16)
	tests := []struct {
		name    string
		cfg     svcnotify.Config
		wantErr bool
	}{
		{"minimal", svcnotify.Config{InternalSecret: long}, false},
		{"short secret", svcnotify.Config{InternalSecret: long[:15]}, true},
		{"workspace url", svcnotify.Config{InternalSecret: long, WorkspaceURL: "http://svc-workspace:8080"}, false},
		{"workspace url without scheme", svcnotify.Config{InternalSecret: long, WorkspaceURL: "svc-workspace:8080"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.cfg.Validate(); (err != nil) != tt.wantErr {
				t.Fatalf("Validate() = %v, wantErr %v", err, tt.wantErr)
			}
		})
	}
	if err := (&svcnotify.Config{}).ValidateStores(); err == nil {
		t.Fatal("ValidateStores accepted empty store addresses")
	}
}

func TestWrongPrincipal(t *testing.T) {
	e := newEnv(t, svcnotify.Config{})
	tests := []struct {
		name, principal, path string
	}{
		{"service calls a public operation", identity, "/v1/notifications/get"},
		{"operator calls a public operation", internalauth.Operator, "/v2/notifications/add"},
		{"workspace calls an internal route", ws1, svcnotify.UserDataPath},
		{"workspace migrates", ws1, docmigrate.MigratePath},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.fails(tt.principal, tt.path, map[string]any{"organizationId": "o1"}, http.StatusForbidden, "PERMISSION_DENIED")
		})
	}
	req := httptest.NewRequest(http.MethodPost, "/v1/notifications/get", strings.NewReader(`{"data":{"organizationId":"o1"}}`))
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden {
		t.Fatalf("unsigned request: HTTP %d", rec.Code)
	}
}
