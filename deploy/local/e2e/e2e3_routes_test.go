package e2e

import (
	"net/http"
	"testing"
)

// e3Paths are the public operations of svc-activity, svc-notify,
// svc-content and users/data/get.
var e3Paths = []string{
	"/v2/activities/add", "/v2/activities/update", "/v2/activities/get", "/v2/activities/delete",
	"/v1/notifications/add", "/v2/notifications/add", "/v1/notifications/get", "/v2/notifications/get",
	"/v1/notifications/update", "/v2/notifications/update", "/v1/notifications/delete", "/v2/notifications/delete",
	"/v1/notifications/config/get", "/v2/notifications/config/get", "/v1/notifications/config/set", "/v2/notifications/config/set",
	"/v2/crdt/add", "/v2/crdt/get", "/v2/crdt/update",
	"/v2/commentannotations/add", "/v2/commentannotations/get", "/v2/commentannotations/update", "/v2/commentannotations/delete",
	"/v2/commentannotations/comments/add", "/v2/commentannotations/comments/get",
	"/v2/commentannotations/comments/update", "/v2/commentannotations/comments/delete",
	"/v2/commentannotations/reactions/add", "/v2/commentannotations/reactions/delete",
	"/v1/organizations/documents/locations/update",
	"/v2/organizations/documents/migrate", "/v2/organizations/documents/migrate/status",
	"/v2/users/data/get",
}

// TestContentRoutesThroughGateway: every operation is refused without
// valid workspace credentials, and with them reaches its service, which
// validates the body (an empty one is INVALID_ARGUMENT, not the gateway's
// NOT_FOUND for an unknown path).
func TestContentRoutesThroughGateway(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	for _, p := range e3Paths {
		for name, h := range map[string]map[string]string{
			"no credentials": {},
			"wrong token":    {"x-svc-api-key": s.ws.apiKey, "x-svc-auth-token": "at_wrong"},
			"operator token": {"x-svc-operator-token": s.sys.Credentials.OperatorToken},
		} {
			if r := s.raw(http.MethodPost, p, []byte(`{"data":{}}`), h); r.Status() != "PERMISSION_DENIED" || r.Code != 403 {
				t.Errorf("%s with %s: got %d %s", p, name, r.Code, r.Raw)
			}
		}
		if r := s.call(p, map[string]any{}); r.Status() != "INVALID_ARGUMENT" || r.Code != 400 {
			t.Errorf("%s with an empty body: got %d %s", p, r.Code, r.Raw)
		}
	}
}
