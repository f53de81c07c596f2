package svccontent_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/docaccess"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/service/servicetest"
	"github.com/opencollab/backend/pkg/web"
	svccontent "github.com/opencollab/backend/svc-content"
)

const secret = servicetest.Secret

var signer = servicetest.Signer

// owner is a fake service serving the document-migration contract and,
// for svc-workspace, the credential lookup.
type owner struct {
	mu      sync.Mutex
	calls   []map[string]any
	hasData bool
	// access is, for svc-identity, who has access to which document (one
	// missing is unknown); asked records the document access questions.
	access map[string][]string
	asked  []docaccess.Request
	srv    *httptest.Server
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
	g.POST(docaccess.Path, o.documentAccess)
	o.srv = httptest.NewServer(e)
	t.Cleanup(o.srv.Close)
	return o
}

// documentAccess answers docaccess.Path from o.access. It decodes with
// encoding/json: the request's bound is svc-identity's registered limit.
func (o *owner) documentAccess(c *gin.Context) {
	var req struct {
		Data docaccess.Request `json:"data"`
	}
	_ = json.NewDecoder(c.Request.Body).Decode(&req)
	o.mu.Lock()
	defer o.mu.Unlock()
	o.asked = append(o.asked, req.Data)
	users, found := o.access[req.Data.DocumentID]
	reply := docaccess.Reply{UserIDs: []string{}, DocumentFound: found}
	for _, u := range req.Data.UserIDs {
		if slices.Contains(users, u) {
			reply.UserIDs = append(reply.UserIDs, u)
		}
	}
	c.JSON(http.StatusOK, map[string]any{"result": map[string]any{"status": "success", "message": "ok", "data": reply}})
}

func (o *owner) callCount() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.calls)
}

type env struct {
	*servicetest.Env
	identity, notify, activity, workspace *owner
}

func newEnv(t *testing.T, change func(*svccontent.Config)) *env {
	t.Helper()
	e := &env{Env: servicetest.NewEnv(t), identity: newOwner(t), notify: newOwner(t), activity: newOwner(t), workspace: newOwner(t)}
	cfg := svccontent.Config{
		MigrationLease: time.Second,
		IdentityURL:    e.identity.srv.URL, NotifyURL: e.notify.srv.URL + "/", ActivityURL: e.activity.srv.URL,
		WorkspaceURL: e.workspace.srv.URL,
	}
	if change != nil {
		change(&cfg)
	}
	servicetest.Start(e.Env, svccontent.New, cfg)
	return e
}

// reply is a reply with its HTTP status.
type reply struct {
	Code int
	servicetest.Reply
}

func (e *env) call(principal, path string, data any) reply {
	e.T.Helper()
	code, r := e.Call(principal, path, data)
	return reply{code, r}
}

var (
	ws1    = internalauth.Workspace("ws1")
	caller = internalauth.Service("identity") // a service calling content's internal routes
)
