package e2e

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/opencollab/backend/deploy/local/system"
)

// TestUserDataEraseThroughGateway: /v2/users/data/delete erases a user in
// every service — identity, content (comments and reactions, redacted in
// other users' threads), notify, activity, memory (judgments and their
// vectors) and workspace (webhook payloads); the status reports each
// service; afterwards users/data/get and every other read find nothing of
// the user, and other users' threads keep their own comments.
func TestUserDataEraseThroughGateway(t *testing.T) {
	t.Parallel() // a stack of its own: nothing shared with the other tests
	var mongoURI, prefix string
	s := startStack(t, func(o *system.Options) { mongoURI, prefix = o.MongoURI, o.DBPrefix })
	const org = "acme"
	s.seedUserInEveryService(org, "ann")
	hooks := webhookStore(t, mongoURI, prefix)
	waitUntil(t, "webhook messages naming ann", func() bool { return hooks.naming("ann") > 0 })

	bad := s.call("/v2/users/data/delete", map[string]any{"userIds": []string{"ann"}, "organizationIds": []string{""}})
	expectStatus(t, bad, "INVALID_ARGUMENT", 400)
	r := s.ok("/v2/users/data/delete", map[string]any{"userIds": []string{"ann"}, "organizationIds": []string{org}})
	jobID, _ := r.DataMap()["jobId"].(string)
	if jobID == "" || r.DataMap()["tasksCount"] != float64(6) {
		t.Fatalf("delete: %s", r.Raw)
	}
	st := s.waitErased(jobID)
	services, _ := st["services"].(map[string]any)
	for _, svc := range []string{"identity", "content", "notify", "activity", "memory", "workspace"} {
		if services[svc] != "done" {
			t.Fatalf("status: %v", st)
		}
	}
	if st["tasksLeft"] != float64(0) || st["lastTaskCompletedTime"] == nil {
		t.Fatalf("status: %v", st)
	}
	s.expectNothingOf(org, "ann")
	if n := hooks.naming("ann"); n != 0 {
		t.Fatalf("%d webhook messages still name ann: %v", n, hooks.payloadsNaming("ann"))
	}
	// bob's thread stays, with bob's comment; ann's reply is redacted.
	b := s.e3UserData(s.ws, org, "bob", nil)
	if !slices.Contains(b.comments, "d1/t2/1:bob only") || !slices.Equal(b.notifications, []string{"to-bob"}) {
		t.Fatalf("bob's data after ann's erasure: %+v", b)
	}
	// Idempotent: the same request names the same job and completes again.
	if again := s.ok("/v2/users/data/delete", map[string]any{"userIds": []string{"ann"}}).DataMap()["jobId"]; again != jobID {
		t.Fatalf("second request: job %v, want %s", again, jobID)
	}
}

// TestVeltV2PathsThroughGateway calls each operation issue 17 added, as a
// Velt customer backend would, and checks the answer's shape.
func TestVeltV2PathsThroughGateway(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	const org = "acme"
	s.ok("/v2/organizations/folders/add", map[string]any{"organizationId": org, "createOrganization": true,
		"folders": []any{map[string]any{"folderId": "f1"}, map[string]any{"folderId": "f2"}}})
	s.ok("/v2/organizations/documents/add", map[string]any{"organizationId": org, "folderId": "f1", "documents": []any{map[string]any{"documentId": "d1"}}})
	s.ok("/v2/users/add", map[string]any{"organizationId": org, "users": []any{map[string]any{"userId": "u1", "name": "U", "email": "u1@example.com"}}})

	if it := s.ok("/v2/organizations/folders/access/update", map[string]any{"organizationId": org, "folderIds": []string{"f1"}, "accessType": "public"}).DataMap()["f1"].(map[string]any); it["success"] != true {
		t.Fatalf("folders/access/update: %v", it)
	}
	if it := s.ok("/v2/organizations/documents/access/update", map[string]any{"organizationId": org, "documentIds": []string{"d1"}, "accessType": "restricted"}).DataMap()["d1"].(map[string]any); it["accessType"] != "restricted" {
		t.Fatalf("documents/access/update: %v", it)
	}
	s.ok("/v2/organizations/documents/access/disablestate/update", map[string]any{"organizationId": org, "documentIds": []string{"d1"}, "disabled": true})
	s.ok("/v2/organizations/access/disablestate/update", map[string]any{"organizationIds": []string{org}, "disabled": false})
	if m := s.ok("/v2/organizations/documents/move", map[string]any{"organizationId": org, "documentIds": []string{"d1"}, "folderId": "f2"}).Result["message"]; m != "Documents moved successfully." {
		t.Fatalf("documents/move: %v", m)
	}
	s.ok("/v2/organizations/folders/update", map[string]any{"organizationId": org, "folders": []any{map[string]any{"folderId": "f2", "folderName": "Two"}}})
	s.ok("/v2/organizations/usergroups/add", map[string]any{"organizationId": org, "organizationUserGroups": []any{map[string]any{"groupId": "g1"}}})
	s.ok("/v2/organizations/usergroups/users/add", map[string]any{"organizationId": org, "organizationUserGroupId": "g1", "userIds": []string{"u1"}})
	s.ok("/v2/organizations/usergroups/users/delete", map[string]any{"organizationId": org, "organizationUserGroupId": "g1", "userIds": []string{"u1"}})
	s.ok("/v2/users/delete", map[string]any{"organizationId": org, "userIds": []string{"u1"}})

	add := s.ok("/v2/commentannotations/add", map[string]any{"organizationId": org, "documentId": "d1",
		"commentAnnotations": []any{e3AnnotationIn("", "", "bob", "no id given")}})
	for k, v := range add.DataMap() {
		if v.(map[string]any)["annotationId"] != k {
			t.Fatalf("add keyed %q: %s", k, add.Raw)
		}
	}
	c := s.ok("/v2/commentannotations/count/get", map[string]any{"organizationId": org, "documentIds": []string{"d1"}, "userId": "ann"}).DataMap()
	if d1, _ := c["d1"].(map[string]any); d1["total"] != float64(1) || d1["unread"] != float64(1) {
		t.Fatalf("count/get: %v", c)
	}
}

// TestLiveStateBroadcastThroughGateway: the REST call is routed to
// svc-content and answers the hosted product's shape (delivery to stock
// clients is tested in svc-content/internal/realtime).
func TestLiveStateBroadcastThroughGateway(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	r := s.ok("/v2/livestate/broadcast", map[string]any{"organizationId": "acme", "documentId": "d1",
		"liveStateDataId": "s1", "data": map[string]any{"status": "active"}, "merge": true})
	if r.DataMap()["success"] != true || r.Result["message"] != "Event broadcasted successfully." {
		t.Fatalf("broadcast: %s", r.Raw)
	}
	if bad := s.call("/v2/livestate/broadcast", map[string]any{"organizationId": "acme", "documentId": "d1", "liveStateDataId": "s1"}); bad.Code != 400 {
		t.Fatalf("without data: %d %s", bad.Code, bad.Raw)
	}
}

// TestCompatibilityTableAnswers calls every operation of
// docs/velt-compatibility.md through the gateway with an empty body: a
// same or equivalent row must reach an operation (whatever it answers to
// the empty body), an absent row must get "no operation".
func TestCompatibilityTableAnswers(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	raw, err := os.ReadFile("../../../docs/velt-compatibility.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("^\\| `(/v2/[^`]+)` \\| (same|equivalent|absent) \\|")
	checked := 0
	for _, line := range strings.Split(string(raw), "\n") {
		m := row.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		checked++
		r := s.call(m[1], map[string]any{})
		msg, _ := r.Error["message"].(string)
		unknown := r.Code == 404 && strings.HasPrefix(msg, "no operation at")
		if unknown != (m[2] == "absent") {
			t.Errorf("%s (%s in the table): %d %s", m[1], m[2], r.Code, r.Raw)
		}
	}
	if checked < 50 {
		t.Fatalf("only %d rows checked", checked)
	}
}
