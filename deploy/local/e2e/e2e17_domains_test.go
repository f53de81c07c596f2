package e2e

import (
	"slices"
	"testing"

	"github.com/opencollab/backend/svc-content/realtimetest"
)

// TestAllowedDomainsThroughGateway: domains/add|delete answer the hosted
// product's shape, and while the list is not empty stock realtime clients
// whose socket sends an Origin outside it are refused with the reason,
// through the gateway.
func TestAllowedDomainsThroughGateway(t *testing.T) {
	t.Parallel() // a stack of its own: nothing shared with the other tests
	s := startStack(t)
	const org, doc = "org-dom", "doc-dom"
	r := s.ok("/v2/workspace/domains/add", map[string]any{"domains": []string{"https://www.example.com", "https://*.example.com"}})
	if got, _ := r.DataMap()["domainsAdded"].([]any); len(got) != 2 || got[0] != "example.com" || got[1] != "*.example.com" {
		t.Fatalf("domains/add: %s", r.Raw)
	}
	token := s.userToken("ada", docGrant(org, doc, "editor"))
	cfg := map[string]any{"wsBase": s.wsBase(), "room": org + "/" + doc + "/ed1", "token": token,
		"allowed": "https://app.example.com", "refused": "https://example.org"}
	realtimetest.Run(t, "origin", cfg)

	del := s.ok("/v2/workspace/domains/delete", map[string]any{"domains": []string{"example.com", "*.example.com", "velt.dev"}})
	if skipped, _ := del.DataMap()["skippedDomains"].([]any); !slices.Equal(skipped, []any{"velt.dev"}) {
		t.Fatalf("domains/delete: %s", del.Raw)
	}
	if bad := s.call("/v2/workspace/domains/add", map[string]any{"domains": []string{"https://example.com/path"}}); bad.Code != 400 {
		t.Fatalf("a URL with a path: %d %s", bad.Code, bad.Raw)
	}
}
