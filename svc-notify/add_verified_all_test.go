package svcnotify_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/docaccess"
	"github.com/opencollab/backend/pkg/erasure"
	svcnotify "github.com/opencollab/backend/svc-notify"
)

// serveOrganization answers docaccess.OrganizationPath (see
// standInIdentity).
func (s *standInIdentity) serveOrganization(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Data docaccess.OrganizationRequest `json:"data"`
	}
	_ = json.NewDecoder(r.Body).Decode(&req)
	s.mu.Lock()
	s.askedOrg = append(s.askedOrg, req.Data)
	s.mu.Unlock()
	if req.Data.DocumentID == "crowd" {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"error":{"status":"FAILED_PRECONDITION","message":"more than 1000 users of organization o1 have access to document crowd"}}`))
		return
	}
	s.reply(w, req.Data.DocumentID, s.members)
}

// organizationCalls returns the organization-wide questions identity got
// so far and forgets them.
func (s *standInIdentity) organizationCalls() []docaccess.OrganizationRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.askedOrg
	s.askedOrg = nil
	return out
}

// toAll is a verified add of doc to the whole organization.
func toAll(id, doc string, opts ...func(body)) body {
	return verified(id, doc, append([]func(body){set("notifyAll", true)}, opts...)...)
}

func TestAddVerifiedToAllReachesOnlyTheUsersWithAccess(t *testing.T) {
	// bob and carol are members with access to d1; dave and erin are
	// members without; outsider is in no organization but has access (as
	// to a public document).
	idp := newStandInIdentity(t, map[string][]string{"d1": {"bob", "carol", "outsider"}})
	idp.members = []string{"bob", "carol", "dave", "erin"}
	e := newEnv(t, svcnotify.Config{IdentityURL: idp.URL})
	e.OK(ws1, "/v2/notifications/add", note("plain"), nil) // unverified: everyone

	// bob is named and has access; dave is named and has not.
	res := e.addV2(toAll("a1", "d1", set("notifyUsers", []body{user("bob"), user("dave")})))
	if !res.Success || !strings.Contains(res.Message, "2 users") || !strings.Contains(res.Message, "dave") {
		t.Fatalf("a1 answered %+v; want success for 2 users, naming dave", res)
	}
	if got := idp.organizationCalls(); len(got) != 1 || got[0] != (docaccess.OrganizationRequest{WorkspaceID: "ws1", OrganizationID: "o1", DocumentID: "d1"}) {
		t.Fatalf("identity was asked about the organization %+v", got)
	}
	// Only dave, not listed, is asked about by name (bob was listed).
	if got := idp.calls(); len(got) != 1 || !slices.Equal(got[0].UserIDs, []string{"dave"}) {
		t.Fatalf("identity was asked %+v, want dave only", got)
	}
	// The audience is no recipient: notifyUsers is bob alone.
	if a1 := e.stored("a1"); a1 == nil || !exactly(a1.NotifyUsers, "bob") {
		t.Fatalf("a1 stored for %v, want bob", a1)
	}
	all := func(u string) []string {
		return e.getIDs(ws1, "/v1/notifications/get", body{"organizationId": "o1", "userId": u, "tab": "all"})
	}
	forYou := func(u string) []string {
		return e.getIDs(ws1, "/v1/notifications/get", body{"organizationId": "o1", "userId": u, "tab": "forYou"})
	}
	want := map[string][2][]string{ // all, For You
		"bob":   {{"a1", "plain"}, {"a1"}},
		"carol": {{"a1", "plain"}, {}},
		"dave":  {{"plain"}, {}},
		"erin":  {{"plain"}, {}},
	}
	for u, w := range want {
		if got := all(u); !slices.Equal(got, w[0]) {
			t.Errorf("%s's all tab: %v, want %v", u, got, w[0])
		}
		if got := forYou(u); !slices.Equal(got, w[1]) {
			t.Errorf("%s's For You: %v, want %v", u, got, w[1])
		}
	}
	// Nor is the audience a recipient for deletes by user: deleting
	// carol's notifications leaves a1.
	e.OK(ws1, "/v1/notifications/delete", body{"organizationId": "o1", "userId": "carol"}, nil)
	if e.stored("a1") == nil {
		t.Fatal("deleting carol's notifications deleted a1, whose audience she is only in")
	}
	// The audience is not who the notification concerns: not in carol's
	// data export.
	if pages := e.userData(ws1, "carol", 10); slices.Contains(slices.Concat(pages...), "a1") {
		t.Fatalf("carol's data export lists a1: %v", pages)
	}

	// The default notifyAll too; a named user outside the organization with
	// access is a recipient as without notifyAll.
	res = e.addV2(verified("a2", "d1", set("notifyUsers", []body{user("outsider")}), set("notifyAll", nil)))
	if !res.Success || strings.Contains(res.Message, "not notified") {
		t.Fatalf("a2 answered %+v", res)
	}
	if got := forYou("outsider"); !slices.Equal(got, []string{"a2"}) {
		t.Fatalf("outsider's For You: %v, want [a2]", got)
	}
	if got := all("dave"); !slices.Equal(got, []string{"plain"}) {
		t.Fatalf("dave's all tab: %v, want [plain]", got)
	}

	// carol reads a1, then is erased: a1 stays for the others, without
	// her anywhere in it. bob, its recipient, erased: a1 goes.
	e.batch(ws1, "/v1/notifications/update", body{"organizationId": "o1", "notifications": []body{{"id": "a1", "readByUserIds": []string{"carol"}}}})
	e.OK(identity, erasure.Path, body{"workspaceId": "ws1", "userIds": []string{"carol"}}, nil)
	if e.stored("a1") == nil {
		t.Fatal("erasing carol, only in a1's audience, erased a1")
	}
	if n := e.count(bson.M{"$or": bson.A{bson.M{"visibleTo": "carol"}, bson.M{"audienceUsers": "carol"}, bson.M{"readByUserIds": "carol"}}}); n != 0 {
		t.Fatalf("%d notifications still name carol", n)
	}
	if got := all("bob"); !slices.Contains(got, "a1") {
		t.Fatalf("bob lost a1 when carol was erased: %v", got)
	}
	e.OK(identity, erasure.Path, body{"workspaceId": "ws1", "userIds": []string{"bob"}}, nil)
	if e.stored("a1") != nil {
		t.Fatal("erasing bob, a1's recipient, kept a1")
	}
}

func TestAddVerifiedToAllStoresNothingItCannotCheck(t *testing.T) {
	idp := newStandInIdentity(t, map[string][]string{"d1": {"bob"}, "d2": {}})
	idp.members = []string{"bob", "dave"}
	e := newEnv(t, svcnotify.Config{IdentityURL: idp.URL})

	// Too many with access: refused, telling how to send it instead.
	r := e.Fails(ws1, "/v2/notifications/add", toAll("x1", "crowd"), http.StatusBadRequest, "FAILED_PRECONDITION")
	for _, part := range []string{"more than 1000 users", "notifyAll: false", "notifyUsers"} {
		if !strings.Contains(r.Error.Message, part) {
			t.Errorf("message %q does not say %q", r.Error.Message, part)
		}
	}
	// Nobody of the organization with access (and no recipient), or an
	// unknown document: nothing stored, success false.
	for id, doc := range map[string]string{"x2": "d2", "x3": "ghost"} {
		if res := e.addV2(toAll(id, doc, set("notifyUsers", []body{user("dave")}))); res.Success || !strings.Contains(res.Message, "No notification added") {
			t.Errorf("%s: answered %+v, want success false", id, res)
		}
	}
	if res := e.addV2(toAll("x3", "ghost")); !strings.Contains(res.Message, "does not exist") {
		t.Errorf("unknown document: message %q does not say so", res.Message)
	}
	// A refusal of the call itself: INTERNAL.
	idp.status.Store(http.StatusForbidden)
	e.Fails(ws1, "/v2/notifications/add", toAll("x4", "d1"), http.StatusInternalServerError, "INTERNAL")
	if n := e.count(bson.M{}); n != 0 || len(e.published()) != 0 {
		t.Fatalf("stored %d notifications, published %d events", n, len(e.published()))
	}

	// Without identity: UNAVAILABLE, nothing stored.
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	for name, cfg := range map[string]svcnotify.Config{"no IDENTITY_URL": {}, "identity down": {IdentityURL: down.URL}} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, cfg)
			e.Fails(ws1, "/v2/notifications/add", toAll("x5", "d1"), http.StatusServiceUnavailable, "UNAVAILABLE")
			if n := e.count(bson.M{}); n != 0 || len(e.published()) != 0 {
				t.Fatalf("stored %d notifications, published %d events", n, len(e.published()))
			}
		})
	}
}
