package folderdocs_test

import (
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/folderdocs"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/svcclient"
	"github.com/opencollab/backend/pkg/web"
)

// serve stands in for svc-identity: folder "f1" holds d1 and d2, "big"
// is over the bound, and refuse answers every call with that status.
func serve(t *testing.T, signer *internalauth.Signer, refuse api.Status) *folderdocs.Client {
	e := web.NewEngine(nil)
	e.POST(folderdocs.Path, signer.Authenticate(), internalauth.RequireService(), web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req folderdocs.Request
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		switch {
		case refuse != "":
			return nil, api.Errorf(refuse, "refused")
		case req.FolderID == "big":
			return nil, api.Errorf(api.FailedPrecondition, "folder big holds more than %d documents", folderdocs.MaxDocuments)
		case req.WorkspaceID == "ws1" && req.OrganizationID == "o1" && req.FolderID == "f1":
			return api.OK("ok", folderdocs.Reply{DocumentIDs: []string{"d1", "d2"}, FolderFound: true}), nil
		}
		return api.OK("ok", folderdocs.Reply{}), nil
	}))
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return folderdocs.NewClient(svcclient.New("svc-identity", srv.URL, signer), "content")
}

func TestDocumentsAsksIdentity(t *testing.T) {
	signer := internalauth.NewSigner("s3cret-s3cret-s3cret")
	c := serve(t, signer, "")
	docs, found, err := c.Documents(t.Context(), "ws1", "o1", "f1")
	if err != nil || !found || !slices.Equal(docs, []string{"d1", "d2"}) {
		t.Fatalf("f1: %v %v %v", docs, found, err)
	}
	docs, found, err = c.Documents(t.Context(), "ws2", "o1", "f1")
	if err != nil || found || docs == nil || len(docs) != 0 {
		t.Fatalf("another workspace's folder: %v %v %v, want an empty list, not found", docs, found, err)
	}
	if _, _, err := c.Documents(t.Context(), "ws1", "o1", "big"); !api.IsStatus(err, api.FailedPrecondition) {
		t.Fatalf("big folder: %v, want identity's FAILED_PRECONDITION", err)
	}
}

// Never an answer for want of one: UNAVAILABLE without identity, INTERNAL
// when identity refuses the call itself.
func TestDocumentsFailsWithoutAnAnswer(t *testing.T) {
	signer := internalauth.NewSigner("s3cret-s3cret-s3cret")
	unconfigured := folderdocs.NewClient(svcclient.New("svc-identity", "", signer), "content")
	if _, _, err := unconfigured.Documents(t.Context(), "ws1", "o1", "f1"); !api.IsStatus(err, api.Unavailable) || !strings.Contains(err.Error(), "IDENTITY_URL") {
		t.Fatalf("no address: %v, want UNAVAILABLE naming IDENTITY_URL", err)
	}
	var none *folderdocs.Client
	if _, _, err := none.Documents(t.Context(), "ws1", "o1", "f1"); !api.IsStatus(err, api.Unavailable) {
		t.Fatalf("nil client: %v", err)
	}
	srv := httptest.NewServer(nil)
	srv.Close()
	down := folderdocs.NewClient(svcclient.New("svc-identity", srv.URL, signer), "content")
	if _, _, err := down.Documents(t.Context(), "ws1", "o1", "f1"); !api.IsStatus(err, api.Unavailable) {
		t.Fatalf("identity down: %v, want UNAVAILABLE", err)
	}
	if _, _, err := serve(t, signer, api.PermissionDenied).Documents(t.Context(), "ws1", "o1", "f1"); !api.IsStatus(err, api.Internal) {
		t.Fatalf("refused call: %v, want INTERNAL", err)
	}
}
