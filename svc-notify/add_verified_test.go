package svcnotify_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/docaccess"
	"github.com/opencollab/backend/pkg/docscope"
	"github.com/opencollab/backend/pkg/erasure"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/service/servicetest"
	svcnotify "github.com/opencollab/backend/svc-notify"
)

// standInIdentity serves docaccess.Path from a table of who has access to
// which document (a document missing from it is unknown) and records what
// it was asked; docaccess.OrganizationPath answers those of them in
// members (the organization's users), or, for document "crowd", too
// many. A service module imports no other service: the real svc-identity
// decides in deploy/local/e2e (e2e_verify_access_test.go).
type standInIdentity struct {
	*httptest.Server
	access  map[string][]string
	members []string
	status  atomic.Int32 // answer every call with this HTTP status, when set

	mu       sync.Mutex
	asked    []docaccess.Request
	askedOrg []docaccess.OrganizationRequest
	ensured  []docscope.Request
}

func newStandInIdentity(t *testing.T, access map[string][]string) *standInIdentity {
	t.Helper()
	s := &standInIdentity{access: access}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *standInIdentity) serve(w http.ResponseWriter, r *http.Request) {
	principal, err := servicetest.Signer.Verify(r.Header)
	known := r.URL.Path == docaccess.Path || r.URL.Path == docaccess.OrganizationPath || r.URL.Path == docscope.Path
	if err != nil || principal != internalauth.Service("notify") || !known {
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte(`{"error":{"status":"PERMISSION_DENIED","message":"no"}}`))
		return
	}
	if code := s.status.Load(); code != 0 {
		w.WriteHeader(int(code))
		_, _ = w.Write([]byte(`{"error":{"status":"PERMISSION_DENIED","message":"refused"}}`))
		return
	}
	switch r.URL.Path {
	case docaccess.OrganizationPath:
		s.serveOrganization(w, r)
		return
	case docscope.Path:
		s.serveEnsure(w, r)
		return
	}
	var req struct {
		Data docaccess.Request `json:"data"`
	}
	_ = json.NewDecoder(r.Body).Decode(&req)
	s.mu.Lock()
	s.asked = append(s.asked, req.Data)
	s.mu.Unlock()
	s.reply(w, req.Data.DocumentID, req.Data.UserIDs)
}

// reply answers which of candidates have access to doc, in their order.
func (s *standInIdentity) reply(w http.ResponseWriter, doc string, candidates []string) {
	users, found := s.access[doc]
	reply := docaccess.Reply{UserIDs: []string{}, DocumentFound: found}
	for _, u := range candidates {
		if slices.Contains(users, u) {
			reply.UserIDs = append(reply.UserIDs, u)
		}
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"result": map[string]any{"status": "success", "message": "ok", "data": reply}})
}

// calls returns what identity was asked so far and forgets it.
func (s *standInIdentity) calls() []docaccess.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.asked
	s.asked = nil
	return out
}

// verified is a v2 add body of document doc that verifies its recipients.
func verified(id, doc string, opts ...func(body)) body {
	return note(id, append([]func(body){set("documentId", doc), set("verifyUserPermissions", true)}, opts...)...)
}

// addV2 posts a v2 add and returns result.data.
func (e *env) addV2(b body) itemResult {
	e.T.Helper()
	var res itemResult
	e.OK(ws1, "/v2/notifications/add", b, &res)
	if res.Message == "" {
		e.T.Fatalf("add answered without a message: %+v", res)
	}
	return res
}

// stored is notification id as notifications/get answers it (nil: absent).
func (e *env) stored(id string) *record {
	e.T.Helper()
	page, _ := e.get(ws1, "/v1/notifications/get", body{"organizationId": "o1", "notificationIds": []string{id}})
	if len(page) == 0 {
		return nil
	}
	return &page[0]
}

func TestAddVerifiedNotifiesOnlyRecipientsWithAccess(t *testing.T) {
	idp := newStandInIdentity(t, map[string][]string{"d1": {"bob", "carol"}, "d2": {}})
	e := newEnv(t, svcnotify.Config{IdentityURL: idp.URL})

	// bob has access, dave does not; erin, the headline's recipientUser,
	// does not either.
	res := e.addV2(verified("n1", "d1", only("bob", "dave"), recipient(user("erin"))))
	if !res.Success || !strings.Contains(res.Message, "dave") || !strings.Contains(res.Message, "erin") || strings.Contains(res.Message, "bob") {
		t.Fatalf("n1 answered %+v; want success naming dave and erin (only)", res)
	}
	if got := idp.calls(); len(got) != 1 || !slices.Equal(got[0].UserIDs, []string{"bob", "dave", "erin"}) ||
		got[0].WorkspaceID != "ws1" || got[0].OrganizationID != "o1" || got[0].DocumentID != "d1" {
		t.Fatalf("identity was asked %+v", got)
	}
	n1 := e.stored("n1")
	if n1 == nil || !exactly(n1.NotifyUsers, "bob") || !exactly(n1.NotifyUsersByUserID, "bob") {
		t.Fatalf("n1 stored for %v, want bob only", n1)
	}
	// The headline keeps its data as sent: the others read who was meant.
	if !strings.Contains(string(n1.DisplayHeadlineMessageTemplateData), `"erin"`) {
		t.Fatalf("n1's headline data lost its recipientUser: %s", n1.DisplayHeadlineMessageTemplateData)
	}
	if n := e.count(bson.M{"id": "n1", "notifyUserIds": []string{"bob"}}); n != 1 {
		t.Fatal("dave's user object was stored with n1")
	}
	forYou := func(u string) []string {
		return e.getIDs(ws1, "/v1/notifications/get", body{"organizationId": "o1", "userId": u, "tab": "forYou"})
	}
	all := func(u string) []string {
		return e.getIDs(ws1, "/v1/notifications/get", body{"organizationId": "o1", "userId": u, "tab": "all"})
	}
	if !slices.Equal(forYou("bob"), []string{"n1"}) || len(forYou("dave")) != 0 || len(forYou("erin")) != 0 ||
		len(all("dave")) != 0 || len(all("erin")) != 0 {
		t.Fatalf("tabs: bob %v, dave %v/%v, erin %v/%v; want n1 for bob only", forYou("bob"), forYou("dave"), all("dave"), forYou("erin"), all("erin"))
	}

	// A recipientUser with access (sent as an id) is kept; dave is not.
	if res := e.addV2(verified("n2", "d1", only("dave"), recipient("carol"))); !res.Success {
		t.Fatalf("n2 answered %+v", res)
	}
	if n2 := e.stored("n2"); n2 == nil || !exactly(n2.NotifyUsers, "carol") {
		t.Fatalf("n2 stored for %v, want carol only", n2)
	}

	// Everyone with access: stored as sent.
	if res := e.addV2(verified("n3", "d1", only("bob", "carol"))); !res.Success || strings.Contains(res.Message, "not notified") {
		t.Fatalf("n3 answered %+v", res)
	}
	if n3 := e.stored("n3"); n3 == nil || !exactly(n3.NotifyUsers, "bob", "carol") {
		t.Fatalf("n3 stored for %v, want bob and carol", n3)
	}

	// Nobody with access, or a document identity does not know: nothing
	// stored, nothing published, success false saying why.
	published := len(e.published())
	for name, b := range map[string]body{
		"nobody":    verified("n4", "d2", only("bob"), recipient("erin")),
		"no such":   verified("n5", "ghost", only("bob")),
		"only dave": verified("n6", "d1", only("dave")),
	} {
		res := e.addV2(b)
		if res.Success || !strings.Contains(res.Message, "No notification added") {
			t.Errorf("%s: answered %+v, want success false", name, res)
		}
	}
	if res := e.addV2(verified("n5", "ghost", only("bob"))); !strings.Contains(res.Message, "does not exist") {
		t.Errorf("unknown document: message %q does not say so", res.Message)
	}
	for _, id := range []string{"n4", "n5", "n6"} {
		if e.stored(id) != nil {
			t.Errorf("%s was stored although nobody has access", id)
		}
	}
	if n := len(e.published()); n != published {
		t.Errorf("%d events published for adds that stored nothing", n-published)
	}

	// The events carry what was stored.
	var first record
	if err := json.Unmarshal(e.published()[0].Data, &first); err != nil || first.ID != "n1" || !exactly(first.NotifyUsers, "bob") {
		t.Fatalf("n1's event carries %+v (%v), want bob only", first, err)
	}

	// erin, withheld from n1, is still someone n1 names: erasing her
	// erases it.
	e.OK(identity, erasure.Path, body{"workspaceId": "ws1", "userIds": []string{"erin"}}, nil)
	if e.stored("n1") != nil {
		t.Fatal("erasing erin kept n1, whose headline names her")
	}
}

// exactly reports whether m is exactly the users ids, each true.
func exactly(m map[string]bool, ids ...string) bool {
	if len(m) != len(ids) {
		return false
	}
	for _, id := range ids {
		if !m[id] {
			return false
		}
	}
	return true
}

func TestAddVerifiedRefusesWhatItCannotCheck(t *testing.T) {
	idp := newStandInIdentity(t, map[string][]string{"d1": {"bob"}})
	e := newEnv(t, svcnotify.Config{IdentityURL: idp.URL})

	// Identity refusing the call (here: any refusal) is no answer about the
	// users: INTERNAL, nothing stored.
	idp.status.Store(http.StatusForbidden)
	e.Fails(ws1, "/v2/notifications/add", verified("x3", "d1", only("bob")), http.StatusInternalServerError, "INTERNAL")
	if n := e.count(bson.M{}); n != 0 {
		t.Fatalf("refused adds stored %d notifications", n)
	}

	// Without identity, nobody is notified unchecked: UNAVAILABLE.
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	for name, cfg := range map[string]svcnotify.Config{"no IDENTITY_URL": {}, "identity down": {IdentityURL: down.URL}} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, cfg)
			r := e.Fails(ws1, "/v2/notifications/add", verified("x4", "d1", only("bob")), http.StatusServiceUnavailable, "UNAVAILABLE")
			if r.Error.Message == "" {
				t.Fatal("UNAVAILABLE without a message")
			}
			if n := e.count(bson.M{}); n != 0 || len(e.published()) != 0 {
				t.Fatalf("stored %d notifications, published %d events", n, len(e.published()))
			}
			// Adds that verify nothing work as before.
			e.OK(ws1, "/v2/notifications/add", note("plain", only("bob")), nil)
		})
	}
}

func TestAddVerifiedLeavesAnExistingNotificationWhenNobodyHasAccess(t *testing.T) {
	idp := newStandInIdentity(t, map[string][]string{"d1": {}})
	e := newEnv(t, svcnotify.Config{IdentityURL: idp.URL})
	e.OK(ws1, "/v2/notifications/add", note("n1", only("bob"), set("displayBodyMessage", "first")), nil)
	if res := e.addV2(verified("n1", "d1", only("bob"), set("displayBodyMessage", "second"))); res.Success {
		t.Fatalf("answered %+v, want success false", res)
	}
	if n1 := e.stored("n1"); n1 == nil || n1.DisplayBodyMessage != "first" {
		t.Fatalf("n1 = %+v; an add that stores nothing changed it", n1)
	}
}
