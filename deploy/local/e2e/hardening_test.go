package e2e

import (
	"net/http"
	"strings"
	"testing"
)

// TestStrictBodiesWriteNothing sends bodies the decoder must refuse to
// write operations of several services: each is a 400 INVALID_ARGUMENT
// naming the field, and a read afterwards shows nothing was stored.
func TestStrictBodiesWriteNothing(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	h := map[string]string{"x-svc-api-key": s.ws.apiKey, "x-svc-auth-token": s.ws.authToken}
	deep := strings.Repeat(`{"a":`, 40) + `1` + strings.Repeat(`}`, 40)
	note := func(extra string) string {
		return `{"data":{"organizationId":"hz","documentId":"hd","actionUser":{"userId":"ann"},"displayHeadlineMessageTemplate":"h","displayBodyMessage":"b","notifyAll":false,"notifyUsers":[{"userId":"bob"}]` + extra + `}}`
	}
	comment := func(extra string) string {
		return `{"data":{"organizationId":"hz","documentId":"hd","commentAnnotations":[{"commentData":[{"commentText":"x","from":{"userId":"ann"}}]` + extra + `}]}}`
	}
	many := func(n int, item string) string { return strings.TrimSuffix(strings.Repeat(item+",", n), ",") }
	for _, tc := range []struct{ name, path, body, mention string }{
		{"users/add misspelt field", "/v2/users/add", `{"data":{"organisationId":"hz","users":[{"userId":"mallory"}]}}`, "did you mean organizationId?"},
		{"users/add field in other case", "/v2/users/add", `{"data":{"organizationID":"hz","users":[{"userId":"mallory"}]}}`, "did you mean organizationId?"},
		{"users/add too many users", "/v2/users/add", `{"data":{"organizationId":"hz","users":[` + many(1001, `{"userId":"mallory"}`) + `]}}`, "at most 1000"},
		{"organizations/delete too many ids", "/v2/organizations/delete", `{"data":{"organizationIds":[` + many(101, `"hz"`) + `]}}`, "at most 100"},
		{"notifications/add unknown source", "/v2/notifications/add", note(`,"notificationSource":"__bogus__"`), "notificationSource"},
		{"notifications/add deep source data", "/v2/notifications/add", note(`,"notificationSourceData":` + deep), "deeper than 32"},
		{"notifications/add duplicate key after a $ key", "/v2/notifications/add", note(`,"context":{"access":{"$x":1,"$x":2}}`), "$x"},
		{"notifications/add duplicate key", "/v2/notifications/add", note(`,"notificationSourceData":{"k":1,"k":2}`), "appears twice"},
		{"commentannotations/add too many comments", "/v2/commentannotations/add", `{"data":{"organizationId":"hz","documentId":"hd","commentAnnotations":[{"commentData":[` + many(101, `{"commentText":"x","from":{"userId":"ann"}}`) + `]}]}}`, "at most 100"},
		{"commentannotations/add dotted location key", "/v2/commentannotations/add", comment(`,"location":{"a.b":1}`), "a.b"},
		{"commentannotations/add unknown field", "/v2/commentannotations/add", comment(`,"comentData":[]`), "unknown field"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := s.raw(http.MethodPost, tc.path, []byte(tc.body), h)
			expectStatus(t, r, "INVALID_ARGUMENT", 400)
			if msg, _ := r.Error["message"].(string); !strings.Contains(msg, tc.mention) {
				t.Errorf("message %q does not mention %q", msg, tc.mention)
			}
		})
	}
	// Nothing of organization hz reached any store.
	if users := s.ok("/v2/users/get", map[string]any{"organizationId": "hz"}).Result["data"]; len(users.([]any)) != 0 {
		t.Errorf("users stored by refused requests: %v", users)
	}
	if n := s.ok("/v2/notifications/get", map[string]any{"organizationId": "hz", "documentId": "hd"}).Result["data"]; len(n.([]any)) != 0 {
		t.Errorf("notifications stored by refused requests: %v", n)
	}
	if a := s.ok("/v2/commentannotations/get", map[string]any{"organizationId": "hz", "documentIds": []string{"hd"}}).Result["data"]; len(a.([]any)) != 0 {
		t.Errorf("annotations stored by refused requests: %v", a)
	}
}

// TestFaithfulAnswers: trailing slashes inside the envelope, a migration of
// a document that does not exist, expiresAt in milliseconds.
func TestFaithfulAnswers(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	r := s.raw(http.MethodPost, "/v2/users/get/", []byte(`{"data":{"organizationId":"acme"}}`),
		map[string]string{"x-svc-api-key": s.ws.apiKey, "x-svc-auth-token": s.ws.authToken})
	expectStatus(t, r, "NOT_FOUND", 404)
	if msg, _ := r.Error["message"].(string); !strings.Contains(msg, "/v2/users/get") {
		t.Errorf("trailing slash message: %q", msg)
	}
	expectStatus(t, s.call("/v2/organizations/documents/migrate", map[string]any{"organizationId": "acme", "documentId": "no-such-doc", "newDocumentId": "nd"}), "NOT_FOUND", 404)
	// A seconds value is now in 1970: refused as past.
	expectStatus(t, s.call("/v2/auth/permissions/add", map[string]any{"user": map[string]any{"userId": "u"}, "permissions": map[string]any{"resources": []any{
		map[string]any{"type": "organization", "id": "acme", "expiresAt": 4102444800},
	}}}), "INVALID_ARGUMENT", 400)
}
