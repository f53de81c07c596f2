package docaccess_test

import (
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/docaccess"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/svcclient"
	"github.com/opencollab/backend/pkg/web"
)

func init() {
	// svc-identity registers the limit its decoding of Request names; this
	// test decodes Request in its stand-in for identity.
	api.RegisterLimits(api.Limit{Name: "identity.userIds", Max: docaccess.MaxUserIDs})
}

// fakeIdentity grants access to the users whose id starts with "ok", and
// records the calls it got.
type fakeIdentity struct {
	mu    sync.Mutex
	calls []docaccess.Request
	deny  bool // refuse every call as svc-identity refuses a wrong secret
}

func (f *fakeIdentity) serve(t *testing.T, signer *internalauth.Signer) string {
	e := web.NewEngine(nil)
	e.POST(docaccess.Path, signer.Authenticate(), internalauth.RequireService(), web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req docaccess.Request
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		f.mu.Lock()
		f.calls = append(f.calls, req)
		f.mu.Unlock()
		if f.deny {
			return nil, api.Errorf(api.PermissionDenied, "request is not authenticated")
		}
		out := docaccess.Reply{UserIDs: []string{}, DocumentFound: req.DocumentID != "ghost"}
		for _, u := range req.UserIDs {
			if strings.HasPrefix(u, "ok") && out.DocumentFound {
				out.UserIDs = append(out.UserIDs, u)
			}
		}
		return api.OK("ok", out), nil
	}))
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestUsersWithAccessSplitsLongListsAndKeepsTheOrder(t *testing.T) {
	signer := internalauth.NewSigner("s3cret-s3cret-s3cret")
	f := &fakeIdentity{}
	c := docaccess.NewClient(svcclient.New("svc-identity", f.serve(t, signer), signer), "notify")

	users := make([]string, 2*docaccess.MaxUserIDs+1)
	var want []string
	for i := range users {
		users[i] = fmt.Sprint("no", i)
		if i%700 == 0 {
			users[i] = fmt.Sprint("ok", i)
			want = append(want, users[i])
		}
	}
	got, found, err := c.UsersWithAccess(t.Context(), "ws1", "o1", "d1", users)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) || !found {
		t.Fatalf("got %v (found %v), want %v", got, found, want)
	}
	if len(f.calls) != 3 || len(f.calls[0].UserIDs) != docaccess.MaxUserIDs || len(f.calls[2].UserIDs) != 1 {
		t.Fatalf("%d calls for %d users, want 3 of at most %d", len(f.calls), len(users), docaccess.MaxUserIDs)
	}
	if r := f.calls[0]; r.WorkspaceID != "ws1" || r.OrganizationID != "o1" || r.DocumentID != "d1" {
		t.Fatalf("call carried %+v", r)
	}
	got, found, err = c.UsersWithAccess(t.Context(), "ws1", "o1", "ghost", []string{"ok1"})
	if err != nil || len(got) != 0 || got == nil || found {
		t.Fatalf("missing document: %v (found %v), %v", got, found, err)
	}
}

func TestUsersWithAccessNeverAnswersWithoutIdentity(t *testing.T) {
	signer := internalauth.NewSigner("s3cret-s3cret-s3cret")
	unconfigured := docaccess.NewClient(svcclient.New("svc-identity", "", signer), "notify")
	_, _, err := unconfigured.UsersWithAccess(t.Context(), "ws1", "o1", "d1", []string{"ok1"})
	if !api.IsStatus(err, api.Unavailable) || !strings.Contains(err.Error(), "IDENTITY_URL") {
		t.Fatalf("no address: %v, want UNAVAILABLE naming IDENTITY_URL", err)
	}
	var none *docaccess.Client
	if _, _, err := none.UsersWithAccess(t.Context(), "ws1", "o1", "d1", []string{"ok1"}); !api.IsStatus(err, api.Unavailable) {
		t.Fatalf("nil client: %v, want UNAVAILABLE", err)
	}

	srv := httptest.NewServer(nil)
	srv.Close()
	down := docaccess.NewClient(svcclient.New("svc-identity", srv.URL, signer), "notify")
	if _, _, err := down.UsersWithAccess(t.Context(), "ws1", "o1", "d1", []string{"ok1"}); !api.IsStatus(err, api.Unavailable) {
		t.Fatalf("identity down: %v, want UNAVAILABLE", err)
	}

	// identity's refusal of the call itself is no statement about the
	// users: INTERNAL, not PERMISSION_DENIED.
	f := &fakeIdentity{deny: true}
	refused := docaccess.NewClient(svcclient.New("svc-identity", f.serve(t, signer), signer), "notify")
	if _, _, err := refused.UsersWithAccess(t.Context(), "ws1", "o1", "d1", []string{"ok1"}); !api.IsStatus(err, api.Internal) {
		t.Fatalf("refused call: %v, want INTERNAL", err)
	}
}
