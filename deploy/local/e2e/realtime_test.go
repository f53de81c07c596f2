package e2e

import (
	"encoding/json"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/opencollab/backend/deploy/local/system"
	"github.com/opencollab/backend/svc-content/realtimetest"
)

// Realtime sync through the gateway with stock clients and real user
// tokens (/v2/auth/generate_token), on the documents REST reads and writes.

// userToken mints a user token granting resources.
func (s *stack) userToken(user string, resources ...map[string]any) string {
	s.t.Helper()
	r := s.call("/v2/auth/generate_token", map[string]any{
		"userId":         user,
		"userProperties": map[string]any{"name": user, "email": user + "@example.com"},
		"permissions":    map[string]any{"resources": resources},
	})
	if r.Code != 200 {
		s.t.Fatalf("generate_token: %d %s", r.Code, r.Raw)
	}
	return r.DataMap()["token"].(string)
}

func docGrant(org, doc, role string) map[string]any {
	return map[string]any{"type": "document", "id": doc, "organizationId": org, "accessRole": role}
}

func (s *stack) wsBase() string {
	u, err := url.Parse(s.sys.GatewayURL)
	if err != nil {
		s.t.Fatal(err)
	}
	return "ws://" + u.Host
}

// editorText reads an editor's data through /v2/crdt/get.
func (s *stack) editorText(org, doc, editor string) string {
	s.t.Helper()
	text, problem := s.readEditorText(org, doc, editor)
	if problem != "" {
		s.t.Fatal(problem)
	}
	return text
}

// storedText waits until /v2/crdt/get gives an editor's text that want
// accepts. What clients write is relayed to the others at once and stored
// by the next group commit, up to CommitGather later (README "Realtime
// sync"): a read right after another client saw the text may precede it.
// y-websocket has no acknowledgement to wait for instead.
func (s *stack) storedText(t *testing.T, org, doc, editor string, want func(string) bool) string {
	t.Helper()
	var text string
	e3Eventually(t, 10*time.Second, "crdt/get of "+editor, func() string {
		got, problem := s.readEditorText(org, doc, editor)
		if problem != "" {
			return problem
		}
		if text = got; !want(got) {
			return fmt.Sprintf("data %q", got)
		}
		return ""
	})
	return text
}

// readEditorText is an editor's text, or what is wrong with the answer.
func (s *stack) readEditorText(org, doc, editor string) (string, string) {
	r := s.call("/v2/crdt/get", map[string]any{"organizationId": org, "documentId": doc, "editorId": editor})
	list, _ := r.Data().([]any)
	if len(list) != 1 {
		return "", fmt.Sprintf("crdt/get: %s", r.Raw)
	}
	var text string
	raw, _ := json.Marshal(list[0].(map[string]any)["data"])
	_ = json.Unmarshal(raw, &text)
	return text, ""
}

func TestRealtimeThroughTheGateway(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	const org, doc = "org-rt", "doc-rt"
	add := s.call("/v2/crdt/add", map[string]any{"organizationId": org, "documentId": doc, "editorId": "ed1", "type": "text", "data": "seeded "})
	if add.Code != 200 {
		t.Fatalf("crdt/add: %d %s", add.Code, add.Raw)
	}
	ada := s.userToken("ada", docGrant(org, doc, "editor"))
	bob := s.userToken("bob", map[string]any{"type": "organization", "id": org, "accessRole": "editor"})
	vic := s.userToken("vic", docGrant(org, doc, "viewer"))
	eve := s.userToken("eve", docGrant(org, "another-doc", "editor"))
	base := s.wsBase()
	room := org + "/" + doc + "/ed1"

	t.Run("seeded content, concurrent typing, REST reads what clients wrote", func(t *testing.T) {
		r := realtimetest.Run(t, "converge", map[string]any{"wsBase": base, "room": room, "tokens": []string{ada, bob}, "expectInitial": "seeded "})
		s.storedText(t, org, doc, "ed1", func(got string) bool { return got == r["text"] })
	})
	t.Run("viewer edits go nowhere", func(t *testing.T) {
		realtimetest.Run(t, "viewer", map[string]any{"wsBase": base, "room": room, "editorToken": ada, "viewerToken": vic})
	})
	t.Run("bad token 4401, no access 4403", func(t *testing.T) {
		realtimetest.Run(t, "refused", map[string]any{"wsBase": base, "room": room, "token": "not-a-token", "expectCode": 4401})
		realtimetest.Run(t, "refused", map[string]any{"wsBase": base, "room": room, "token": eve, "expectCode": 4403})
	})
	t.Run("a Hocuspocus client and a y-websocket client converge", func(t *testing.T) {
		realtimetest.Run(t, "mixed", map[string]any{"wsBase": base, "room": room, "tokens": []string{ada, bob}})
	})
	t.Run("REST update seen live", func(t *testing.T) {
		p := realtimetest.Start(t, "watch", map[string]any{"wsBase": base, "room": org + "/" + doc + "/ed2", "token": ada, "expect": "from REST"})
		add := s.call("/v2/crdt/add", map[string]any{"organizationId": org, "documentId": doc, "editorId": "ed2", "type": "text", "data": "first"})
		if add.Code != 200 {
			t.Fatalf("crdt/add: %s", add.Raw)
		}
		p.WaitStep("synced")
		up := s.call("/v2/crdt/update", map[string]any{"organizationId": org, "documentId": doc, "editorId": "ed2", "type": "text", "data": "from REST"})
		if up.Code != 200 {
			t.Fatalf("crdt/update: %s", up.Raw)
		}
		p.Result()
	})
	t.Run("a new editor id is created by its first editor", func(t *testing.T) {
		realtimetest.Run(t, "write", map[string]any{"wsBase": base, "room": org + "/" + doc + "/fresh", "token": ada, "write": "created live"})
		s.storedText(t, org, doc, "fresh", func(got string) bool { return got == "created live" })
	})
	t.Run("two TipTap editors converge", func(t *testing.T) {
		realtimetest.Run(t, "tiptap", map[string]any{"wsBase": base, "room": org + "/" + doc + "/tiptap", "tokens": []string{ada, bob}})
		s.storedText(t, org, doc, "tiptap", func(got string) bool { return got != "" })
	})
	t.Run("removed permission ends the session", func(t *testing.T) {
		cid := s.userToken("cid", docGrant(org, doc, "editor"))
		p := realtimetest.Start(t, "closed", map[string]any{"wsBase": base, "room": room, "token": cid, "expectCode": 4403})
		p.WaitStep("synced")
		rm := s.call("/v2/auth/permissions/remove", map[string]any{"userId": "cid", "permissions": map[string]any{
			"resources": []any{map[string]any{"type": "document", "id": doc, "organizationId": org}},
		}})
		if rm.Code != 200 {
			t.Fatalf("permissions/remove: %s", rm.Raw)
		}
		p.Result()
	})
}

// Two svc-content replicas behind the gateway (round-robin, no sticky
// sessions): clients that land on different replicas converge.
func TestRealtimeTwoContentReplicasBehindTheGateway(t *testing.T) {
	t.Parallel()
	s := startStack(t, func(o *system.Options) { o.ContentReplicas = 2 })
	const org, doc = "org-rep", "doc-rep"
	ada := s.userToken("ada", docGrant(org, doc, "editor"))
	bob := s.userToken("bob", docGrant(org, doc, "editor"))
	base := s.wsBase()
	// The balancer alternates, so the two clients of each run land on
	// different replicas; several runs cover both orders.
	for _, ed := range []string{"eda", "edb", "edc"} {
		t.Run(ed, func(t *testing.T) {
			r := realtimetest.Run(t, "converge", map[string]any{"wsBase": base, "room": org + "/" + doc + "/" + ed, "tokens": []string{ada, bob}})
			s.storedText(t, org, doc, ed, func(got string) bool { return got == r["text"] })
		})
	}
	t.Run("mixed", func(t *testing.T) {
		realtimetest.Run(t, "mixed", map[string]any{"wsBase": base, "room": org + "/" + doc + "/mixed", "tokens": []string{ada, bob}})
	})
}
