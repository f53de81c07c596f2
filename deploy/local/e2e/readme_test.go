package e2e

import (
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/opencollab/backend/pkg/api"
)

// readmeCurl matches one curl example of the README (continuation lines
// already joined): its path, its credential header and its body.
var readmeCurl = regexp.MustCompile(`curl -s -X POST localhost:8080(\S+) -H "(x-svc-[a-z-]+): \$\w+"(?: -H "x-svc-auth-token: \$TOKEN")?\s+-d '(.*)'$`)

// TestReadmeExamples runs every curl line of the README, in order, against
// a stack started as `make run` does: each must succeed as written.
func TestReadmeExamples(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := sharedStack(t)
	text := strings.ReplaceAll(string(readme), "\\\n", " ")
	vars := strings.NewReplacer(`'"$KEY"'`, s.ws.apiKey, `'"$TOKEN"'`, s.ws.authToken)
	ran := 0
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "curl ") {
			continue
		}
		m := readmeCurl.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			t.Errorf("README curl line not in the tested form: %s", line)
			continue
		}
		headers := map[string]string{"x-svc-api-key": s.ws.apiKey, "x-svc-auth-token": s.ws.authToken}
		if m[2] == "x-svc-operator-token" {
			headers = map[string]string{"x-svc-operator-token": s.sys.Credentials.OperatorToken}
		}
		r := s.raw(http.MethodPost, m[1], []byte(vars.Replace(m[3])), headers)
		if r.Code != http.StatusOK {
			t.Errorf("README example %s: %d %s", m[1], r.Code, r.Raw)
		}
		ran++
	}
	if ran < 4 {
		t.Fatalf("ran %d README examples; the README has more", ran)
	}
}

// TestReadmeListsEveryLimit keeps the README's limits table equal to the
// services' tables (api.Limits, registered by the services this stack links).
func TestReadmeListsEveryLimit(t *testing.T) {
	readme, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	limits := api.Limits()
	if len(limits) == 0 {
		t.Fatal("no limits registered")
	}
	for _, l := range limits {
		if row := fmt.Sprintf("| %s | %d |", l.Name, l.Max); !strings.Contains(string(readme), row) {
			t.Errorf("README lacks the limits row %q", row)
		}
	}
}
