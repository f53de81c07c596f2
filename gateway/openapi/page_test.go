package openapi

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opencollab/backend/pkg/nodetool"
)

// TestDocsPageRendersInJSDOM loads the /docs page in jsdom with its script
// and checks that every operation rendered with its fields and responses.
func TestDocsPageRendersInJSDOM(t *testing.T) {
	dir := nodetool.Dir(t, "docscheck", "jsdom")
	cmd := exec.Command("node", filepath.Join(dir, "docs.mjs"))
	cmd.Stdin = bytes.NewReader(DocsPage())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("docs.mjs: %v\n%s", err, stderr.String())
	}
	var got struct {
		Ops []struct {
			ID, Path, Title string
			Fields, Codes   []string
		}
		Nav     int
		Visible []string
		Errors  []string
		Title   string
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("docs.mjs wrote %q: %v", out, err)
	}
	if len(got.Errors) > 0 {
		t.Fatalf("the page's script failed: %v", got.Errors)
	}
	ops := Operations()
	if len(got.Ops) != len(ops) || got.Nav != len(ops) {
		t.Fatalf("rendered %d operations and %d links, want %d", len(got.Ops), got.Nav, len(ops))
	}
	byPath := map[string]int{}
	for i, o := range got.Ops {
		byPath[o.Path] = i
	}
	for _, op := range ops {
		if _, ok := byPath[op.Path]; !ok {
			t.Errorf("%s %s did not render", op.Method, op.Path)
		}
	}
	add := got.Ops[byPath["/v2/users/add"]]
	if add.Title != "POST/v2/users/add" || !contains(add.Fields, "organizationId") || !contains(add.Fields, "users") {
		t.Errorf("users/add rendered as %+v", add)
	}
	if !contains(add.Codes, "400") || !contains(add.Codes, "429") || contains(add.Codes, "409") {
		t.Errorf("users/add responses: %v", add.Codes)
	}
	if len(got.Visible) != 1 || got.Visible[0] != "/v2/memory/search" {
		t.Errorf("filtering by memory/search left %v", got.Visible)
	}
	if !strings.HasPrefix(got.Title, "opencollab backend") {
		t.Errorf("title %q", got.Title)
	}
}
