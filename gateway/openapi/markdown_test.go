package openapi

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommittedReferenceIsCurrent fails when docs/ holds another reference
// than the document gives: run `go run ./gateway/cmd/apidocs` after
// changing spec/.
func TestCommittedReferenceIsCurrent(t *testing.T) {
	for name, want := range map[string][]byte{"api-reference.md": Markdown(), "openapi.json": Document()} {
		got, err := os.ReadFile(filepath.Join("..", "..", "docs", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("docs/%s is stale: run `go run ./gateway/cmd/apidocs` from the repository root", name)
		}
	}
}

func TestReferenceListsEveryOperation(t *testing.T) {
	md := string(Markdown())
	for _, op := range Operations() {
		if !strings.Contains(md, "### "+op.Method+" "+op.Path+"\n") {
			t.Errorf("%s %s has no section", op.Method, op.Path)
		}
	}
	for _, want := range []string{"| `organizationId` (required) | string |", "x-velt-api-key", "## Schemas", "FAILED_PRECONDITION"} {
		if !strings.Contains(md, want) {
			t.Errorf("reference lacks %q", want)
		}
	}
}
