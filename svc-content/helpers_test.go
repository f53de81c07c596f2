package svccontent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/pkg/web"
	svccontent "github.com/opencollab/backend/svc-content"
)

const secret = "test-internal-secret-0123456789"

var signer = internalauth.NewSigner(secret)

// owner is a fake service serving the document-migration contract and,
// for svc-workspace, the credential lookup.
type owner struct {
	mu      sync.Mutex
	calls   []map[string]any
	hasData bool
	srv     *httptest.Server
}

func newOwner(t *testing.T) *owner {
	t.Helper()
	o := &owner{}
	e := web.NewEngine(nil)
	g := e.Group("", signer.Authenticate(), internalauth.RequireService())
	g.POST("/internal/documents/migrate", web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req map[string]any
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		o.mu.Lock()
		o.calls = append(o.calls, req)
		o.mu.Unlock()
		return api.OK("moved", map[string]int64{"moved": 1}), nil
	}))
	g.POST("/internal/documents/has-data", web.Handle(func(*gin.Context) (*api.Result, error) {
		o.mu.Lock()
		defer o.mu.Unlock()
		return api.OK("checked", map[string]bool{"hasData": o.hasData}), nil
	}))
	g.POST("/internal/credentials/lookup", web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req struct {
			APIKey string `json:"apiKey"`
		}
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		if req.APIKey != "ak_1" {
			return nil, api.Errorf(api.NotFound, "unknown key")
		}
		return api.OK("found", map[string]any{"workspaceId": "ws1", "tokenHashes": []string{internalauth.HashToken("at_1")}}), nil
	}))
	o.srv = httptest.NewServer(e)
	t.Cleanup(o.srv.Close)
	return o
}

func (o *owner) callCount() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.calls)
}

type env struct {
	t                                     *testing.T
	h                                     http.Handler
	identity, notify, activity, workspace *owner
}

func newEnv(t *testing.T, change func(*svccontent.Config)) *env {
	t.Helper()
	e := &env{t: t, identity: newOwner(t), notify: newOwner(t), activity: newOwner(t), workspace: newOwner(t)}
	cfg := svccontent.Config{
		InternalSecret: secret, MigrationLease: time.Second,
		IdentityURL: e.identity.srv.URL, NotifyURL: e.notify.srv.URL + "/", ActivityURL: e.activity.srv.URL,
		WorkspaceURL: e.workspace.srv.URL,
	}
	if change != nil {
		change(&cfg)
	}
	svc, err := svccontent.New(context.Background(), cfg, svccontent.Deps{DB: testenv.Mongo(t), Redis: testenv.Redis(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	e.h = svc.Handler()
	return e
}

type reply struct {
	Code   int
	Result struct {
		Status string          `json:"status"`
		Data   json.RawMessage `json:"data"`
	} `json:"result"`
	Error struct {
		Status  string `json:"status"`
		Message string `json:"message"`
	} `json:"error"`
}

func (e *env) call(principal, path string, data any) reply {
	e.t.Helper()
	body, _ := json.Marshal(map[string]any{"data": data})
	req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
	signer.Sign(req.Header, principal)
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	r := reply{Code: rec.Code}
	if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil {
		e.t.Fatalf("%s: reply %q", path, rec.Body.String())
	}
	return r
}

func (e *env) ok(principal, path string, data, out any) {
	e.t.Helper()
	r := e.call(principal, path, data)
	if r.Code != http.StatusOK || r.Result.Status != "success" {
		e.t.Fatalf("%s: HTTP %d %s: %s", path, r.Code, r.Error.Status, r.Error.Message)
	}
	if out != nil {
		if err := json.Unmarshal(r.Result.Data, out); err != nil {
			e.t.Fatalf("%s: %v", path, err)
		}
	}
}

var (
	ws1    = internalauth.Workspace("ws1")
	caller = internalauth.Service("identity") // a service calling content's internal routes
)
