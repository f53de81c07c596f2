package docscope_test

import (
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/docscope"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/svcclient"
	"github.com/opencollab/backend/pkg/web"
)

// fakeIdentity records the calls and answers them with refuse ("": ok).
type fakeIdentity struct {
	mu     sync.Mutex
	calls  []docscope.Request
	refuse api.Status
}

func (f *fakeIdentity) client(t *testing.T) *docscope.Client {
	signer := internalauth.NewSigner("s3cret-s3cret-s3cret")
	e := web.NewEngine(nil)
	e.POST(docscope.Path, signer.Authenticate(), internalauth.RequireService(), web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req docscope.Request
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		f.mu.Lock()
		f.calls = append(f.calls, req)
		f.mu.Unlock()
		if f.refuse != "" {
			return nil, api.Errorf(f.refuse, "refused")
		}
		return api.OK("ok", map[string]any{}), nil
	}))
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return docscope.NewClient(svcclient.New("svc-identity", srv.URL, signer), "content")
}

func TestEnsureAsksOnlyWhenAFlagIsSet(t *testing.T) {
	f := &fakeIdentity{}
	c := f.client(t)
	if err := c.Ensure(t.Context(), "ws1", "o1", "d1", false, false); err != nil || len(f.calls) != 0 {
		t.Fatalf("no flags: %v, %d calls", err, len(f.calls))
	}
	if err := c.Ensure(t.Context(), "ws1", "o1", "d1", true, true); err != nil {
		t.Fatal(err)
	}
	want := docscope.Request{WorkspaceID: "ws1", OrganizationID: "o1", DocumentID: "d1", CreateOrganization: true, CreateDocument: true}
	if len(f.calls) != 1 || f.calls[0] != want {
		t.Fatalf("calls %+v, want one %+v", f.calls, want)
	}
}

// identity's NOT_FOUND is the caller's to see; a refusal of the call itself
// is INTERNAL; without identity's address the flags have no effect.
func TestEnsureErrors(t *testing.T) {
	if err := (&fakeIdentity{refuse: api.NotFound}).client(t).Ensure(t.Context(), "ws1", "o1", "d1", false, true); !api.IsStatus(err, api.NotFound) {
		t.Errorf("missing organization: %v, want NOT_FOUND", err)
	}
	if err := (&fakeIdentity{refuse: api.PermissionDenied}).client(t).Ensure(t.Context(), "ws1", "o1", "d1", true, true); !api.IsStatus(err, api.Internal) {
		t.Errorf("refused call: %v, want INTERNAL", err)
	}
	signer := internalauth.NewSigner("s3cret-s3cret-s3cret")
	srv := httptest.NewServer(nil)
	srv.Close()
	down := docscope.NewClient(svcclient.New("svc-identity", srv.URL, signer), "content")
	if err := down.Ensure(t.Context(), "ws1", "o1", "d1", true, true); !api.IsStatus(err, api.Unavailable) {
		t.Errorf("identity down: %v, want UNAVAILABLE", err)
	}
	unconfigured := docscope.NewClient(svcclient.New("svc-identity", "", signer), "content")
	if err := unconfigured.Ensure(t.Context(), "ws1", "o1", "d1", true, true); err != nil {
		t.Errorf("no address: %v, want no effect", err)
	}
}
