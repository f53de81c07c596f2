package svcnotify_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/docscope"
	svcnotify "github.com/opencollab/backend/svc-notify"
)

// serveEnsure answers docscope.Path: recorded, and NOT_FOUND for a
// document in organization "ghost" without createOrganization.
func (s *standInIdentity) serveEnsure(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Data docscope.Request `json:"data"`
	}
	_ = json.NewDecoder(r.Body).Decode(&req)
	s.mu.Lock()
	s.ensured = append(s.ensured, req.Data)
	s.mu.Unlock()
	if req.Data.OrganizationID == "ghost" && !req.Data.CreateOrganization {
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"error":{"status":"NOT_FOUND","message":"organization ghost does not exist; pass createOrganization: true to create it"}}`))
		return
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"result": map[string]any{"status": "success", "message": "ok", "data": map[string]any{}}})
}

func (s *standInIdentity) ensureCalls() []docscope.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.ensured
	s.ensured = nil
	return out
}

// createOrganization and createDocument go to svc-identity before the add
// is written (and before a verified add asks who has access); identity's
// refusal refuses the add; an add refused for its input asks nothing.
func TestAddEnsuresItsOrganizationAndDocument(t *testing.T) {
	idp := newStandInIdentity(t, map[string][]string{"d1": {"bob"}})
	e := newEnv(t, svcnotify.Config{IdentityURL: idp.URL})

	e.addV2(verified("n1", "d1", only("bob"), set("createOrganization", true), set("createDocument", true)))
	want := docscope.Request{WorkspaceID: "ws1", OrganizationID: "o1", DocumentID: "d1", CreateOrganization: true, CreateDocument: true}
	if got := idp.ensureCalls(); len(got) != 1 || got[0] != want {
		t.Fatalf("identity was asked to create %+v, want %+v", got, want)
	}
	if e.stored("n1") == nil {
		t.Fatal("n1 not stored")
	}
	e.addV2(note("n2"))
	if got := idp.ensureCalls(); len(got) != 0 {
		t.Fatalf("an add without the flags asked %+v", got)
	}
	e.Fails(ws1, "/v2/notifications/add", note("n3", set("organizationId", "ghost"), set("createDocument", true)), http.StatusNotFound, "NOT_FOUND")
	if e.count(bson.M{"id": "n3"}) != 0 {
		t.Fatal("n3 was stored although its document could not be created")
	}
	if got := idp.ensureCalls(); len(got) != 1 || got[0].OrganizationID != "ghost" {
		t.Fatalf("n3 asked %+v", got)
	}
	e.Fails(ws1, "/v2/notifications/add", note("n4", set("createDocument", true), set("displayBodyMessage", "")), http.StatusBadRequest, "INVALID_ARGUMENT")
	if got := idp.ensureCalls(); len(got) != 0 {
		t.Fatalf("an invalid add asked identity to create %+v", got)
	}
}
