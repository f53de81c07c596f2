package e2e

import (
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/opencollab/backend/gateway"
	"github.com/opencollab/backend/gateway/openapi"
)

// TestOpenAPICoversEveryServiceRoute is the services' half of the drift
// check (gateway holds the routing half): every route a service registers
// that the gateway exposes is documented, and every documented operation
// is a route of the service the gateway sends it to.
func TestOpenAPICoversEveryServiceRoute(t *testing.T) {
	s := startStack(t)
	routes := gateway.Routes()
	public := map[string]string{} // "METHOD /path" → service
	for svc, list := range s.sys.ServiceRoutes {
		for _, r := range list {
			method, path, _ := strings.Cut(r, " ")
			if owner := exposedBy(routes, method, path); owner != "" {
				if owner != svc {
					t.Errorf("%s is registered by svc-%s but the gateway sends it to svc-%s", r, svc, owner)
				}
				public[r] = svc
			}
		}
	}
	documented := map[string]bool{}
	for _, op := range openapi.Operations() {
		if op.Tag == "Gateway" {
			continue // answered by the gateway itself
		}
		key := op.Method + " " + op.Path
		documented[key] = true
		if _, ok := public[key]; !ok {
			t.Errorf("%s is documented but no service registers it", key)
		}
	}
	var missing []string
	for r := range public {
		if !documented[r] {
			missing = append(missing, r)
		}
	}
	sort.Strings(missing)
	for _, r := range missing {
		t.Errorf("%s is routed to svc-%s but not in the OpenAPI document", r, public[r])
	}
	if len(public) < 80 {
		t.Fatalf("only %d public routes found; the services' route lists look empty", len(public))
	}
}

// exposedBy returns the service the gateway forwards method+path to, or "".
func exposedBy(routes []gateway.RouteInfo, method, path string) string {
	best := ""
	owner := ""
	for _, r := range routes {
		switch {
		case r.Auth == "realtime":
			if method == http.MethodGet && r.Path == path {
				return r.Service
			}
		case method == http.MethodPost && strings.HasPrefix(path, r.Path) && len(r.Path) > len(best):
			best, owner = r.Path, r.Service
		}
	}
	return owner
}

// TestOpenAPIValidationCatchesWrongShapes shows the contract check fails
// when it should: a wrong answer, an undocumented status, a refused
// request that succeeded, an undocumented path that succeeded.
func TestOpenAPIValidationCatchesWrongShapes(t *testing.T) {
	c, err := loadContract()
	if err != nil {
		t.Fatal(err)
	}
	post := func(path, body string) *http.Request {
		r, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1:1"+path, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("x-svc-api-key", "k")
		r.Header.Set("x-svc-auth-token", "t")
		return r
	}
	jsonHeader := http.Header{"Content-Type": {"application/json"}}
	good := `{"data":{"organizationId":"o","users":[{"userId":"u"}]}}`
	okAnswer := `{"result":{"status":"success","message":"Users added.","data":{"u":{"success":true,"id":"u","message":"User added."}}}}`
	if err := c.check(post("/v2/users/add", good), []byte(good), 200, jsonHeader, []byte(okAnswer)); err != nil {
		t.Fatalf("a correct exchange is reported: %v", err)
	}
	// A document's metadata keys sit beside its fields: an open answer.
	docs := `{"data":{"organizationId":"o","documentIds":["d"]}}`
	docAnswer := `{"result":{"status":"success","message":"m","data":[{"id":"d","accessType":"organizationPrivate","owner":"team-x"}]}}`
	if err := c.check(post("/v2/organizations/documents/get", docs), []byte(docs), 200, jsonHeader, []byte(docAnswer)); err != nil {
		t.Fatalf("a document with metadata is reported: %v", err)
	}
	perms := `{"data":{"organizationId":"o","userIds":["u"],"documentIds":["d"]}}`
	cases := []struct {
		name, path, req string
		code            int
		answer          string
	}{
		{"data of the wrong type", "/v2/users/add", good, 200, `{"result":{"status":"success","message":"m","data":"oops"}}`},
		{"item without success", "/v2/users/add", good, 200, `{"result":{"status":"success","message":"m","data":{"u":{"message":"x"}}}}`},
		{"unknown key in result", "/v2/users/add", good, 200, `{"result":{"status":"success","message":"m","data":{},"extra":1}}`},
		{"status the operation never gives", "/v2/users/add", good, 409, `{"error":{"message":"m","status":"ALREADY_EXISTS"}}`},
		{"status of another HTTP code", "/v2/users/add", good, 400, `{"error":{"message":"m","status":"NOT_FOUND"}}`},
		{"error without message", "/v2/users/add", good, 400, `{"error":{"message":"","status":"INVALID_ARGUMENT"}}`},
		{"unknown key in a batch item", "/v2/users/add", good, 200, `{"result":{"status":"success","message":"m","data":{"u":{"success":true,"message":"x","extra":1}}}}`},
		{"unknown key in a permission entry", "/v2/auth/permissions/get", perms, 200, `{"result":{"status":"success","message":"m","data":{"u":{"documents":{"d":{"accessRole":"editor","accessLevel":"full"}}}}}}`},
		{"access word outside the vocabulary", "/v2/auth/permissions/get", perms, 200, `{"result":{"status":"success","message":"m","data":{"u":{"documents":{"d":{"accessRole":"editor","accessType":"default"}}}}}}`},
		{"refused request succeeded", "/v2/users/add", `{"data":{"users":[]}}`, 200, okAnswer},
		{"undocumented path succeeded", "/v2/users/frobnicate", good, 200, okAnswer},
	}
	for _, tt := range cases {
		if err := c.check(post(tt.path, tt.req), []byte(tt.req), tt.code, jsonHeader, []byte(tt.answer)); err == nil {
			t.Errorf("%s: not reported", tt.name)
		}
	}
}
