package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/opencollab/backend/pkg/internalauth"
)

// TestWorkspacesCannotSeeEachOthersUsers gives two workspaces the same
// organization id and checks that neither reads or changes the other's
// data, while ids that exist only in one workspace stay unknown to the other.
func TestWorkspacesCannotSeeEachOthersUsers(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	one, two := s.ws, s.newWorkspace()

	// Workspace one: organization acme with alice (org), carol (document d1),
	// dave (folder f1), group eng, and an organization solo of its own.
	s.okAs(one, "/v2/organizations/add", map[string]any{"organizations": []any{
		map[string]any{"organizationId": "acme", "organizationName": "Acme One"},
		map[string]any{"organizationId": "solo"},
	}})
	addOne := s.okAs(one, "/v2/users/add", map[string]any{"organizationId": "acme", "users": []any{
		map[string]any{"userId": "alice", "name": "Alice", "email": "alice@one.example"},
	}})
	s.okAs(one, "/v2/users/add", map[string]any{"organizationId": "acme", "documentId": "d1", "createDocument": true, "users": userRefs("carol")})
	s.okAs(one, "/v2/users/add", map[string]any{"organizationId": "acme", "folderId": "f1", "createFolder": true, "users": userRefs("dave")})
	s.okAs(one, "/v2/organizations/usergroups/add", map[string]any{"organizationId": "acme", "organizationUserGroups": []any{map[string]any{"groupId": "eng"}}})
	s.okAs(one, "/v1/organizations/usergroups/users/add", map[string]any{"organizationId": "acme", "organizationUserGroupId": "eng", "userIds": []string{"alice"}})
	s.okAs(one, "/v2/organizations/documents/add", map[string]any{"organizationId": "solo", "documents": []any{map[string]any{"documentId": "s1"}}})

	// Workspace two: the same organization id with bob, and a group of the same id.
	s.okAs(two, "/v2/organizations/add", map[string]any{"organizations": []any{map[string]any{"organizationId": "acme", "organizationName": "Acme Two"}}})
	s.okAs(two, "/v2/users/add", map[string]any{"organizationId": "acme", "users": []any{map[string]any{"userId": "bob", "name": "Bob"}}})
	s.okAs(two, "/v2/organizations/usergroups/add", map[string]any{"organizationId": "acme", "organizationUserGroups": []any{map[string]any{"groupId": "eng"}}})

	view := identityView{org: "acme", users: []string{"alice", "carol", "dave"}, folders: []string{"f1"}, docs: []string{"d1"}, groups: []string{"eng"}}
	before := s.snapshot(one, view)
	soloBefore := s.snapshot(one, identityView{org: "solo", docs: []string{"s1"}})

	t.Run("reads see only their own workspace", func(t *testing.T) {
		expectUsers(t, s.okAs(two, "/v2/users/get", map[string]any{"organizationId": "acme"}), "bob")
		expectUsers(t, s.okAs(two, "/v2/users/get", map[string]any{"organizationId": "acme", "allDocuments": true}))
		expectUsers(t, s.okAs(two, "/v2/users/get", map[string]any{"organizationId": "acme", "documentId": "d1"}))
		expectUsers(t, s.okAs(two, "/v2/users/get", map[string]any{"organizationId": "acme", "folderId": "f1"}))
		expectUsers(t, s.okAs(two, "/v2/users/get", map[string]any{"organizationId": "acme", "organizationUserGroupIds": []string{"eng"}}))
		expectUsers(t, s.okAs(two, "/v2/users/get", map[string]any{"organizationId": "acme", "userIds": []string{"alice", "carol"}}))
		expectUsers(t, s.okAs(one, "/v2/users/get", map[string]any{"organizationId": "acme"}), "alice")

		orgs := objects(t, s.okAs(two, "/v2/organizations/get", map[string]any{}))
		if len(orgs) != 1 || orgs[0]["id"] != "acme" || orgs[0]["organizationName"] != "Acme Two" {
			t.Fatalf("workspace two organizations = %v", orgs)
		}
		if got := objects(t, s.okAs(two, "/v2/organizations/get", map[string]any{"organizationIds": []string{"solo"}})); len(got) != 0 {
			t.Fatalf("workspace two sees solo: %v", got)
		}
		if got := objects(t, s.okAs(two, "/v2/organizations/folders/get", map[string]any{"organizationId": "acme"})); len(got) != 0 {
			t.Fatalf("workspace two sees folders %v", got)
		}
		s.failsAs(two, "/v2/organizations/folders/get", map[string]any{"organizationId": "acme", "folderId": "f1"}, "NOT_FOUND", 404)
		d := objects(t, s.okAs(two, "/v2/organizations/documents/get", map[string]any{"organizationId": "acme", "documentIds": []string{"d1"}}))
		if len(d) != 1 || d[0]["success"] != false {
			t.Fatalf("workspace two sees d1: %v", d)
		}
		if got := objects(t, s.okAs(two, "/v2/organizations/documents/get", map[string]any{"organizationId": "solo"})); len(got) != 0 {
			t.Fatalf("workspace two lists solo's documents: %v", got)
		}

		p := s.okAs(two, "/v2/auth/permissions/get", map[string]any{"organizationId": "acme", "userIds": []string{"alice", "carol", "dave"},
			"documentIds": []string{"d1"}, "folderIds": []string{"f1"}, "skipResourceExistenceValidation": true}).DataMap()
		for _, u := range []string{"alice", "carol", "dave"} {
			expectDenied(t, perm(t, p, u, "organization", "acme"))
			if e := perm(t, p, u, "documents", "d1")["errorCode"]; e != "does_not_exist" {
				t.Fatalf("%s d1 in workspace two: %v", u, e)
			}
			if e := perm(t, p, u, "folders", "f1")["errorCode"]; e != "does_not_exist" {
				t.Fatalf("%s f1 in workspace two: %v", u, e)
			}
		}
		s.failsAs(two, "/v2/auth/permissions/get", map[string]any{"organizationId": "solo", "userIds": []string{"alice"}}, "NOT_FOUND", 404)
	})

	t.Run("writes do not reach the other workspace", func(t *testing.T) {
		// Same ids: both workspaces may hold a document d1 and a user alice.
		expectItems(t, s.okAs(two, "/v2/organizations/documents/add", map[string]any{"organizationId": "acme",
			"documents": []any{map[string]any{"documentId": "d1", "documentName": "two's"}}}), map[string]bool{"d1": true})
		addTwo := s.okAs(two, "/v2/organizations/usergroups/add", map[string]any{"organizationId": "acme", "createOrganization": true,
			"organizationUserGroups": []any{map[string]any{"groupId": "eng", "groupName": "Two"}}})
		expectItems(t, addTwo, map[string]bool{"eng": true})

		expectItems(t, s.okAs(two, "/v2/users/update", map[string]any{"organizationId": "acme",
			"users": []any{map[string]any{"userId": "alice", "name": "Mallory"}}}), map[string]bool{"alice": false})
		expectItems(t, s.okAs(two, "/v1/users/update", map[string]any{"organizationId": "acme", "documentId": "d1",
			"users": []any{map[string]any{"userId": "carol", "name": "Mallory"}}}), map[string]bool{"carol": false})
		expectItems(t, s.okAs(two, "/v1/users/delete", map[string]any{"organizationId": "acme", "userIds": []string{"alice"}}), map[string]bool{"alice": false})
		expectItems(t, s.okAs(two, "/v1/users/delete", map[string]any{"organizationId": "acme", "folderId": "f1", "userIds": []string{"dave"}}), map[string]bool{"dave": false})
		expectItems(t, s.okAs(two, "/v1/organizations/usergroups/users/add", map[string]any{"organizationId": "acme", "organizationUserGroupId": "eng",
			"userIds": []string{"alice"}}), map[string]bool{"alice": false})
		s.okAs(two, "/v1/organizations/usergroups/users/delete", map[string]any{"organizationId": "acme", "organizationUserGroupId": "eng", "deleteAll": true})
		expectItems(t, s.okAs(two, "/v2/organizations/update", map[string]any{"organizations": []any{
			map[string]any{"organizationId": "solo", "organizationName": "hijacked"}}}), map[string]bool{"solo": false})
		expectItems(t, s.okAs(two, "/v2/organizations/documents/update", map[string]any{"organizationId": "solo",
			"documents": []any{map[string]any{"documentId": "s1", "documentName": "hijacked"}}}), map[string]bool{"s1": false})
		expectItems(t, s.okAs(two, "/v2/organizations/documents/delete", map[string]any{"organizationId": "solo", "documentIds": []string{"s1"}}), map[string]bool{"s1": false})
		expectItems(t, s.okAs(two, "/v1/organizations/folders/update", map[string]any{"organizationId": "acme",
			"folders": []any{map[string]any{"folderId": "f1", "folderName": "hijacked"}}}), map[string]bool{"f1": false})
		s.failsAs(two, "/v2/organizations/folders/delete", map[string]any{"organizationId": "acme", "folderId": "f1"}, "NOT_FOUND", 404)
		s.okAs(two, "/v2/auth/permissions/remove", map[string]any{"userId": "alice", "permissions": map[string]any{"resources": []any{
			map[string]any{"type": "organization", "id": "acme"}, map[string]any{"type": "folder", "id": "f1"},
			map[string]any{"type": "document", "id": "d1", "organizationId": "acme"},
		}}})
		expectItems(t, s.okAs(two, "/v2/organizations/delete", map[string]any{"organizationIds": []string{"solo"}}), map[string]bool{"solo": false})
		// Last: workspace two deletes its own acme with everything in it.
		expectItems(t, s.okAs(two, "/v2/organizations/delete", map[string]any{"organizationIds": []string{"acme"}}), map[string]bool{"acme": true})

		if after := s.snapshot(one, view); after != before {
			t.Fatalf("workspace two changed workspace one's acme:\n%s\n---\n%s", before, after)
		}
		if after := s.snapshot(one, identityView{org: "solo", docs: []string{"s1"}}); after != soloBefore {
			t.Fatalf("workspace two changed workspace one's solo:\n%s\n---\n%s", soloBefore, after)
		}
	})

	t.Run("item ids differ per workspace", func(t *testing.T) {
		addTwo := s.okAs(two, "/v2/users/add", map[string]any{"organizationId": "acme", "users": userRefs("alice")})
		idOne, idTwo := item(t, addOne, "alice")["id"], item(t, addTwo, "alice")["id"]
		if idOne == idTwo {
			t.Fatalf("alice has id %v in both workspaces", idOne)
		}
		got := objects(t, s.okAs(one, "/v2/users/get", map[string]any{"organizationId": "acme", "userIds": []string{"alice"}}))
		if len(got) != 1 || got[0]["name"] != "Alice" || got[0]["email"] != "alice@one.example" {
			t.Fatalf("workspace two's users/add of alice changed workspace one's profile: %v", got)
		}
		if ids := usersOf(t, s.okAs(two, "/v2/users/get", map[string]any{"organizationId": "acme"})); !slices.Equal(ids, []string{"alice"}) {
			t.Fatalf("workspace two acme users = %v", ids)
		}
		if n := objects(t, s.okAs(two, "/v2/users/get", map[string]any{"organizationId": "acme"}))[0]["name"]; n != "" {
			t.Fatalf("workspace two's alice took workspace one's profile name %v", n)
		}
	})
}

// workspaceID reads the caller's workspace id from the wid claim of a user
// token (no operation returns it otherwise).
func (s *stack) workspaceID(c creds) string {
	s.t.Helper()
	tok, _ := s.okAs(c, "/v2/auth/generate_token", map[string]any{"userId": "probe",
		"userProperties": map[string]any{"name": "P", "email": "p@example.com"}, "permissions": map[string]any{"resources": []any{}}}).DataMap()["token"].(string)
	wid, _ := jwtPart(s.t, tok, 1)["wid"].(string)
	if wid == "" {
		s.t.Fatal("no wid in token")
	}
	return wid
}

// TestIdentityRefusesUnauthenticatedCallers checks every identity operation
// through the gateway with bad credentials, and svc-identity reached
// directly without the gateway's signature.
func TestIdentityRefusesUnauthenticatedCallers(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	s.ok("/v2/users/add", map[string]any{"organizationId": "acme", "users": userRefs("alice")})
	other := s.newWorkspace()
	view := identityView{org: "acme", users: []string{"alice", "mallory"}}
	before := s.snapshot(s.ws, view)
	write := wrap(`{"organizationId":"acme","users":[{"userId":"mallory"}]}`)

	t.Run("gateway, bad credentials on every operation", func(t *testing.T) {
		for _, p := range identityPaths {
			for name, h := range map[string]map[string]string{
				"no headers":     {},
				"wrong token":    {"x-svc-api-key": s.ws.apiKey, "x-svc-auth-token": "at_wrong"},
				"other ws token": {"x-svc-api-key": s.ws.apiKey, "x-svc-auth-token": other.authToken},
			} {
				r := s.raw(http.MethodPost, p, []byte(write), h)
				if r.Status() != "PERMISSION_DENIED" || r.Code != 403 {
					t.Errorf("%s %s: got %d %s", p, name, r.Code, r.Raw)
				}
			}
		}
		if after := s.snapshot(s.ws, view); after != before {
			t.Fatalf("refused requests wrote:\n%s\n---\n%s", before, after)
		}
	})

	t.Run("gateway ignores client-sent principal headers", func(t *testing.T) {
		h := internalauth.NewSigner(s.sys.InternalSecret)
		forged := http.Header{}
		h.Sign(forged, internalauth.Workspace(s.workspaceID(s.ws)))
		headers := map[string]string{"x-svc-api-key": other.apiKey, "x-svc-auth-token": other.authToken}
		for k := range forged {
			headers[k] = forged.Get(k)
		}
		r := s.raw(http.MethodPost, "/v2/users/get", []byte(wrap(`{"organizationId":"acme"}`)), headers)
		expectOK(t, r)
		expectUsers(t, r) // workspace two has no acme members; workspace one has alice
	})

	direct := func(t *testing.T, header http.Header) reply {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, s.sys.ServiceURLs["identity"]+"/v2/users/add", strings.NewReader(write))
		if err != nil {
			t.Fatal(err)
		}
		req.Header = header
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var env struct {
			Result map[string]any `json:"result"`
			Error  map[string]any `json:"error"`
		}
		if err := json.Unmarshal(b, &env); err != nil {
			t.Fatalf("direct call: not an envelope: %q", b)
		}
		return reply{Code: resp.StatusCode, Result: env.Result, Error: env.Error, Raw: b}
	}
	wid := s.workspaceID(s.ws)

	t.Run("direct calls without the gateway's signature", func(t *testing.T) {
		cases := map[string]http.Header{
			"workspace credentials only": {"X-Svc-Api-Key": {s.ws.apiKey}, "X-Svc-Auth-Token": {s.ws.authToken}},
			"unsigned principal":         {"X-Svc-Principal": {internalauth.Workspace(wid)}},
		}
		wrong := http.Header{}
		internalauth.NewSigner("not-the-internal-secret").Sign(wrong, internalauth.Workspace(wid))
		cases["signed with another secret"] = wrong
		tampered := http.Header{}
		internalauth.NewSigner(s.sys.InternalSecret).Sign(tampered, internalauth.Workspace("someone-else"))
		tampered.Set(internalauth.HeaderPrincipal, internalauth.Workspace(wid))
		cases["principal swapped after signing"] = tampered
		op := http.Header{}
		internalauth.NewSigner(s.sys.InternalSecret).Sign(op, internalauth.Operator)
		cases["operator principal"] = op
		for name, h := range cases {
			t.Run(name, func(t *testing.T) {
				expectStatus(t, direct(t, h), "PERMISSION_DENIED", 403)
			})
		}
		if after := s.snapshot(s.ws, view); after != before {
			t.Fatalf("refused direct calls wrote:\n%s\n---\n%s", before, after)
		}
	})

	t.Run("control: correctly signed direct call", func(t *testing.T) {
		h := http.Header{}
		internalauth.NewSigner(s.sys.InternalSecret).Sign(h, internalauth.Workspace(wid))
		expectOK(t, direct(t, h))
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": "acme"}), "alice", "mallory")
	})
}
