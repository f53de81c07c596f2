package gateway

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// compatRow is one operation of docs/velt-compatibility.md.
type compatRow struct{ path, status string }

var compatLine = regexp.MustCompile("^\\| `(/v2/[^`]+)` \\| (same|equivalent|absent) \\|")

// CompatRows reads the compatibility table (shared with deploy/local's e2e
// through the same file, not through code).
func compatRows(t *testing.T) []compatRow {
	t.Helper()
	raw, err := os.ReadFile("../docs/velt-compatibility.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []compatRow
	for _, line := range strings.Split(string(raw), "\n") {
		if m := compatLine.FindStringSubmatch(line); m != nil {
			rows = append(rows, compatRow{m[1], m[2]})
		}
	}
	if len(rows) < 50 {
		t.Fatalf("only %d rows parsed from the compatibility table", len(rows))
	}
	return rows
}

// TestCompatibilityTableMatchesRoutes: every operation the table calls
// same or equivalent is routed by the gateway's exported route table to a
// service, as a workspace (not operator) call.
func TestCompatibilityTableMatchesRoutes(t *testing.T) {
	routes := Routes()
	for _, row := range compatRows(t) {
		if row.status == "absent" {
			continue
		}
		best := ""
		var auth string
		for _, r := range routes {
			if r.Method == "POST" && (r.Path == row.path || strings.HasSuffix(r.Path, "/") && strings.HasPrefix(row.path, r.Path)) && len(r.Path) > len(best) {
				best, auth = r.Path, r.Auth
			}
		}
		if best == "" {
			t.Errorf("%s is %s in the table but no gateway route serves it", row.path, row.status)
		} else if auth == "operator" {
			t.Errorf("%s is routed as an operator path; a customer backend cannot call it", row.path)
		}
	}
}
