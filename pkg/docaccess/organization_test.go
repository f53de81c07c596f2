package docaccess_test

import (
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/docaccess"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/svcclient"
	"github.com/opencollab/backend/pkg/web"
)

// organizationIdentity answers docaccess.OrganizationPath: ok1 and ok2
// have access to every document but "ghost" (unknown), "crowd" has too
// many users with access, and "deny" is refused as a wrong secret is.
func organizationIdentity(t *testing.T, signer *internalauth.Signer, asked *[]docaccess.OrganizationRequest) string {
	e := web.NewEngine(nil)
	e.POST(docaccess.OrganizationPath, signer.Authenticate(), internalauth.RequireService(), web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req docaccess.OrganizationRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		*asked = append(*asked, req)
		switch req.DocumentID {
		case "crowd":
			return nil, api.Errorf(api.FailedPrecondition, "more than 1000 users of organization o1 have access to document crowd")
		case "deny":
			return nil, api.Errorf(api.PermissionDenied, "request is not authenticated")
		case "ghost":
			return api.OK("ok", docaccess.Reply{UserIDs: []string{}}), nil
		}
		return api.OK("ok", docaccess.Reply{UserIDs: []string{"ok1", "ok2"}, DocumentFound: true}), nil
	}))
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestOrganizationUsersWithAccess(t *testing.T) {
	signer := internalauth.NewSigner("s3cret-s3cret-s3cret")
	var asked []docaccess.OrganizationRequest
	c := docaccess.NewClient(svcclient.New("svc-identity", organizationIdentity(t, signer, &asked), signer), "notify")

	users, found, err := c.OrganizationUsersWithAccess(t.Context(), "ws1", "o1", "d1")
	if err != nil || !found || !slices.Equal(users, []string{"ok1", "ok2"}) {
		t.Fatalf("d1: %v, %v, %v", users, found, err)
	}
	if len(asked) != 1 || asked[0] != (docaccess.OrganizationRequest{WorkspaceID: "ws1", OrganizationID: "o1", DocumentID: "d1"}) {
		t.Fatalf("identity was asked %+v", asked)
	}
	if users, found, err := c.OrganizationUsersWithAccess(t.Context(), "ws1", "o1", "ghost"); err != nil || found || users == nil || len(users) != 0 {
		t.Fatalf("unknown document: %v, %v, %v", users, found, err)
	}
	// Too many with access is the caller's to act on: passed on as said.
	_, _, err = c.OrganizationUsersWithAccess(t.Context(), "ws1", "o1", "crowd")
	if e, ok := api.AsError(err); !ok || e.Status != api.FailedPrecondition || e.Message != "more than 1000 users of organization o1 have access to document crowd" {
		t.Fatalf("crowd: %v, want identity's FAILED_PRECONDITION", err)
	}
	// Any other refusal is a fault between the services.
	if _, _, err := c.OrganizationUsersWithAccess(t.Context(), "ws1", "o1", "deny"); !api.IsStatus(err, api.Internal) {
		t.Fatalf("refused: %v, want INTERNAL", err)
	}

	unconfigured := docaccess.NewClient(svcclient.New("svc-identity", "", signer), "notify")
	if _, _, err := unconfigured.OrganizationUsersWithAccess(t.Context(), "ws1", "o1", "d1"); !api.IsStatus(err, api.Unavailable) {
		t.Fatalf("no address: %v, want UNAVAILABLE", err)
	}
	srv := httptest.NewServer(nil)
	srv.Close()
	down := docaccess.NewClient(svcclient.New("svc-identity", srv.URL, signer), "notify")
	if _, _, err := down.OrganizationUsersWithAccess(t.Context(), "ws1", "o1", "d1"); !api.IsStatus(err, api.Unavailable) {
		t.Fatalf("identity down: %v, want UNAVAILABLE", err)
	}
}
