package gateway

import (
	"bytes"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/opencollab/backend/gateway/openapi"
	"github.com/opencollab/backend/pkg/api"
)

func TestOpenAPIIsServedWithoutCredentials(t *testing.T) {
	e := newEnv(t, nil)
	resp, raw := e.do(http.MethodGet, "/openapi.json", nil)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("GET /openapi.json: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var doc struct {
		OpenAPI string         `json:"openapi"`
		Paths   map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil || doc.OpenAPI != "3.1.0" || len(doc.Paths) < 80 {
		t.Fatalf("document: %v openapi=%q paths=%d", err, doc.OpenAPI, len(doc.Paths))
	}
	if !bytes.Equal(raw, openapi.Document()) {
		t.Fatal("served document differs from openapi.Document()")
	}
	resp, raw = e.do(http.MethodPost, "/openapi.json", nil)
	wantError(t, resp, raw, api.InvalidArgument)
	if e.totalSeen() != 0 {
		t.Fatal("a description request reached a service")
	}
}

func TestDocsPageIsSelfContained(t *testing.T) {
	e := newEnv(t, nil)
	resp, raw := e.do(http.MethodGet, "/docs", nil)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /docs: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	page := string(raw)
	if !strings.Contains(page, `"/v2/users/add"`) || !strings.Contains(page, `id="openapi"`) {
		t.Fatal("the page does not carry the document")
	}
	// No asset from elsewhere: no src/href to another origin, no import.
	if m := regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?(https?:)?//|@import|fetch\(`).FindString(page); m != "" {
		t.Fatalf("the page loads something from the network: %q", m)
	}
	if strings.Count(page, "</script>") != 2 {
		t.Fatal("the inlined document must not close its script element")
	}
}

// TestDescriptionMatchesRouting is the gateway's half of the drift check
// (deploy/local/e2e holds the services' half): every documented operation
// is routed the way its security says, and every prefix, operator path
// and realtime pattern of the routing table is documented.
func TestDescriptionMatchesRouting(t *testing.T) {
	rt := newRouter(nil)
	own := map[string]bool{"/healthz": true, "/readyz": true, "/openapi.json": true, "/docs": true}
	covered := map[string]bool{}
	documented := map[string]string{}
	for _, op := range openapi.Operations() {
		documented[op.Path] = op.Auth
		switch {
		case own[op.Path]:
			if op.Method != "GET" || op.Auth != "none" {
				t.Errorf("%s %s: gateway endpoints are public GETs", op.Method, op.Path)
			}
		case op.Method == "GET":
			r := rt.matchRealtime(concrete(op.Path))
			if r == nil {
				t.Errorf("GET %s is documented but is not a realtime route", op.Path)
				continue
			}
			covered[r.prefix] = true
		default:
			r := rt.match(op.Path)
			if r == nil {
				t.Errorf("POST %s is documented but the gateway does not route it", op.Path)
				continue
			}
			covered[r.prefix] = true
			if want := map[bool]string{true: "operator", false: "workspace"}[rt.isOperator(op.Path)]; op.Auth != want {
				t.Errorf("%s: documented auth %q, gateway uses %q", op.Path, op.Auth, want)
			}
		}
	}
	for _, r := range Routes() {
		switch r.Auth {
		case "operator":
			if documented[r.Path] != "operator" {
				t.Errorf("operator path %s is not documented as an operator operation", r.Path)
			}
		case "realtime":
			if _, ok := documented[r.Path]; !ok {
				t.Errorf("realtime endpoint %s is not documented", r.Path)
			}
		default:
			if !covered[r.Path] {
				t.Errorf("prefix %s (%s) is routed but no operation under it is documented", r.Path, r.Service)
			}
		}
	}
}

// concrete fills a path template's {name} segments.
func concrete(template string) string {
	return regexp.MustCompile(`\{[^}]+\}`).ReplaceAllString(template, "x")
}
