package e2e

import (
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Helpers shared by the svc-identity end-to-end tests.

// okAs calls path as c and fails the test unless the reply is a success
// envelope.
func (s *stack) okAs(c creds, path string, data any) reply {
	s.t.Helper()
	r := s.callAs(c, path, data)
	if r.Code != 200 || r.Result["status"] != "success" {
		s.t.Fatalf("%s: want success, got %d %s", path, r.Code, r.Raw)
	}
	if msg, _ := r.Result["message"].(string); msg == "" {
		s.t.Fatalf("%s: success without message: %s", path, r.Raw)
	}
	return r
}

// ok calls path with the stack's workspace and expects success.
func (s *stack) ok(path string, data any) reply {
	s.t.Helper()
	return s.okAs(s.ws, path, data)
}

// failsAs calls path as c and expects the given error status.
func (s *stack) failsAs(c creds, path string, data any, status string, code int) reply {
	s.t.Helper()
	r := s.callAs(c, path, data)
	if r.Status() != status || r.Code != code {
		s.t.Fatalf("%s: want %s (%d), got %d %s", path, status, code, r.Code, r.Raw)
	}
	if msg, _ := r.Error["message"].(string); msg == "" {
		s.t.Fatalf("%s: error without message: %s", path, r.Raw)
	}
	return r
}

func (s *stack) fails(path string, data any, status string, code int) reply {
	s.t.Helper()
	return s.failsAs(s.ws, path, data, status, code)
}

// item returns data[key] of a batch reply, failing when it is not an object.
func item(t *testing.T, r reply, key string) map[string]any {
	t.Helper()
	it, ok := r.DataMap()[key].(map[string]any)
	if !ok {
		t.Fatalf("no item %q in %s", key, r.Raw)
	}
	return it
}

// expectItem checks the success flag and the message of data[key].
func expectItem(t *testing.T, r reply, key string, success bool) map[string]any {
	t.Helper()
	it := item(t, r, key)
	if it["success"] != success {
		t.Fatalf("item %q: want success %v, got %v (%s)", key, success, it, r.Raw)
	}
	if msg, _ := it["message"].(string); msg == "" {
		t.Fatalf("item %q without message: %v", key, it)
	}
	return it
}

// expectItems checks that the batch reply has exactly these keys with
// these success flags.
func expectItems(t *testing.T, r reply, want map[string]bool) {
	t.Helper()
	if len(r.DataMap()) != len(want) {
		t.Fatalf("want items %v, got %s", want, r.Raw)
	}
	for k, ok := range want {
		expectItem(t, r, k, ok)
	}
}

// objects returns result.data as an array of objects.
func objects(t *testing.T, r reply) []map[string]any {
	t.Helper()
	arr, ok := r.Data().([]any)
	if !ok {
		t.Fatalf("data is not an array: %s", r.Raw)
	}
	out := make([]map[string]any, len(arr))
	for i, v := range arr {
		if out[i], ok = v.(map[string]any); !ok {
			t.Fatalf("data[%d] is not an object: %s", i, r.Raw)
		}
	}
	return out
}

// field collects the string field key of each object of result.data.
func field(t *testing.T, r reply, key string) []string {
	t.Helper()
	var out []string
	for _, o := range objects(t, r) {
		v, _ := o[key].(string)
		out = append(out, v)
	}
	return out
}

// usersOf lists the userIds a users/get reply returns, in order.
func usersOf(t *testing.T, r reply) []string {
	t.Helper()
	return field(t, r, "userId")
}

// expectUsers checks the userIds of a users/get reply.
func expectUsers(t *testing.T, r reply, want ...string) {
	t.Helper()
	if got := usersOf(t, r); !slices.Equal(got, want) {
		t.Fatalf("users: want %v, got %v (%s)", want, got, r.Raw)
	}
}

// perm returns data[user][section][id] of a permissions/get result (data or
// error.details).
func perm(t *testing.T, data map[string]any, user, section, id string) map[string]any {
	t.Helper()
	u, _ := data[user].(map[string]any)
	sec, _ := u[section].(map[string]any)
	p, ok := sec[id].(map[string]any)
	if !ok {
		t.Fatalf("no %s.%s.%s in %v", user, section, id, data)
	}
	return p
}

// expectRole checks that a PermInfo grants role and carries no error.
func expectRole(t *testing.T, p map[string]any, role string) {
	t.Helper()
	if p["accessRole"] != role || p["error"] != nil || p["errorCode"] != nil {
		t.Fatalf("want accessRole %s, got %v", role, p)
	}
}

// expectDenied checks that a PermInfo is a permission_denied entry.
func expectDenied(t *testing.T, p map[string]any) {
	t.Helper()
	if p["errorCode"] != "permission_denied" || p["accessRole"] != nil {
		t.Fatalf("want permission_denied, got %v", p)
	}
	if e, _ := p["error"].(string); e == "" {
		t.Fatalf("denied entry without error text: %v", p)
	}
}

// isHexID reports whether s is n lowercase hex digits.
func isHexID(s string, n int) bool {
	_, err := hex.DecodeString(s)
	return err == nil && len(s) == n && s == strings.ToLower(s)
}

// identityView names what a snapshot reads back.
type identityView struct {
	org     string
	users   []string // permissions/get subjects
	folders []string // users/get per folder, permissions/get folders
	docs    []string // users/get per document, permissions/get documents
	groups  []string // users/get per group (organization and document members)
}

// snapshot reads everything the view names through the API and returns
// the raw replies, so two snapshots are equal only when nothing visible
// changed (timestamps included).
func (s *stack) snapshot(c creds, v identityView) string {
	s.t.Helper()
	type read struct {
		path string
		data map[string]any
	}
	reads := []read{
		{"/v2/organizations/get", map[string]any{}},
		{"/v2/users/get", map[string]any{"organizationId": v.org}},
		{"/v2/users/get", map[string]any{"organizationId": v.org, "allDocuments": true, "groupByDocumentId": true}},
	}
	for _, f := range v.folders {
		reads = append(reads, read{"/v2/users/get", map[string]any{"organizationId": v.org, "folderId": f}})
	}
	for _, d := range v.docs {
		reads = append(reads, read{"/v2/users/get", map[string]any{"organizationId": v.org, "documentId": d}})
	}
	for _, g := range v.groups {
		reads = append(reads, read{"/v2/users/get", map[string]any{"organizationId": v.org, "organizationUserGroupIds": []string{g}}},
			read{"/v2/users/get", map[string]any{"organizationId": v.org, "organizationUserGroupIds": []string{g}, "allDocuments": true}})
	}
	reads = append(reads, read{"/v2/organizations/folders/get", map[string]any{"organizationId": v.org}},
		read{"/v2/organizations/documents/get", map[string]any{"organizationId": v.org}})
	if len(v.users) > 0 {
		reads = append(reads, read{"/v2/auth/permissions/get", map[string]any{
			"organizationId": v.org, "userIds": v.users, "folderIds": v.folders, "documentIds": v.docs,
			"skipResourceExistenceValidation": true,
		}})
	}
	// The reads are independent: sent at once, written in order.
	replies, errs := make([]reply, len(reads)), make([]error, len(reads))
	var wg sync.WaitGroup
	for i, r := range reads {
		body := mustJSON(s.t, map[string]any{"data": r.data})
		wg.Go(func() { replies[i], errs[i] = s.exchange(http.MethodPost, r.path, body, c.headers()) })
	}
	wg.Wait()
	var b strings.Builder
	for i, r := range reads {
		if errs[i] != nil {
			s.t.Fatal(errs[i])
		}
		if got := replies[i]; got.Code != 200 || got.Result["status"] != "success" {
			s.t.Fatalf("%s: want success, got %d %s", r.path, got.Code, got.Raw)
		}
		fmt.Fprintf(&b, "%s %v\n%s\n", r.path, r.data, replies[i].Raw)
	}
	return b.String()
}

// userRefs builds a users array of objects with only userId.
func userRefs(ids ...string) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = map[string]any{"userId": id}
	}
	return out
}

// with returns a copy of m with key set to v.
func with(m map[string]any, key string, v any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for k, x := range m {
		out[k] = x
	}
	out[key] = v
	return out
}

// ids returns n distinct ids with the given prefix.
func ids(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return out
}
