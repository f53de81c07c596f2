package httpapi_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

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

// newEnvWith is newEnv with the Backends that backends builds from the
// identity service and the page token store.
func newEnvWith(t *testing.T, backends func(ids *identity.Service, pages *pagetoken.Store) httpapi.Backends) *env {
	t.Helper()
	db := testenv.Mongo(t)
	st := store.New(db)
	if err := st.EnsureIndexes(t.Context()); err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, db: db, signer: internalauth.NewSigner("test-internal-secret"), now: time.Now()}
	clock := func() time.Time { return e.now }
	pages := pagetoken.New(testenv.Redis(t), 0)
	ids := identity.NewService(st, pages, clock)
	engine := web.NewEngine(nil)
	httpapi.Routes(engine, e.signer, ids, signing.NewSecretStore(db), clock, backends(ids, pages))
	e.h = engine
	return e
}

// callAs posts {"data": data} signed for principal ("" = unsigned).
func (e *env) callAs(principal, path string, data any) response {
	e.t.Helper()
	body, err := json.Marshal(map[string]any{"data": data})
	if err != nil {
		e.t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if principal != "" {
		e.signer.Sign(req.Header, principal)
	}
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	r := response{code: rec.Code, raw: rec.Body.String()}
	if err := json.Unmarshal(rec.Body.Bytes(), &r.body); err != nil {
		e.t.Fatalf("%s: response is not JSON: %q", path, rec.Body.String())
	}
	return r
}

// fakeService is a downstream service on an httptest server. It accepts
// only requests signed with signer by a service principal, records each
// one, and answers with reply.
type fakeService struct {
	t   *testing.T
	srv *httptest.Server

	mu       sync.Mutex
	requests []fakeRequest
	failWith atomic.Pointer[api.Error] // when set, every request gets this error
}

// fakeRequest is what a fake service received.
type fakeRequest struct {
	Path      string
	Principal string
	Body      map[string]any
}

func newFakeService(t *testing.T, signer *internalauth.Signer, path string, reply func(body map[string]any) (any, error)) *fakeService {
	t.Helper()
	f := &fakeService{t: t}
	e := web.NewEngine(nil)
	e.Use(signer.Authenticate(), internalauth.RequireService())
	e.POST(path, web.Handle(func(c *gin.Context) (*api.Result, error) {
		var body map[string]any
		if err := api.Decode(c.Request, &body); err != nil {
			return nil, err
		}
		f.mu.Lock()
		f.requests = append(f.requests, fakeRequest{
			Path: path, Principal: internalauth.PrincipalFrom(c.Request.Context()), Body: body,
		})
		f.mu.Unlock()
		if err := f.failWith.Load(); err != nil {
			return nil, err
		}
		out, err := reply(body)
		if err != nil {
			return nil, err
		}
		return api.OK("ok", out), nil
	}))
	f.srv = httptest.NewServer(e)
	t.Cleanup(f.srv.Close)
	return f
}

// received returns the requests so far and forgets them.
func (f *fakeService) received() []fakeRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.requests
	f.requests = nil
	return out
}

func (f *fakeService) url() string { return f.srv.URL }
