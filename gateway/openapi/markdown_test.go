package openapi

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
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

// TestDocsLinkOnlyInsideTheRepository checks README.md, docs/*.md, the pages
// one folder down (docs/benchmarks: the measurement histories) and the
// services' READMEs: every relative link resolves to a file of the
// repository, and nothing points outside it (../shared, absolute paths).
func TestDocsLinkOnlyInsideTheRepository(t *testing.T) {
	root := filepath.Join("..", "..")
	files, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	deeper, _ := filepath.Glob(filepath.Join(root, "docs", "*", "*.md"))
	files = append(files, deeper...)
	more, _ := filepath.Glob(filepath.Join(root, "*", "README.md"))
	files = append(append(files, filepath.Join(root, "README.md")), more...)
	link := regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`)
	outside := regexp.MustCompile("(\\.\\./shared|`/(work|home|root|Users)/)")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := outside.Find(b); m != nil {
			t.Errorf("%s refers outside the repository: %q", f, m)
		}
		for _, m := range link.FindAllSubmatch(b, -1) {
			target := string(m[1])
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(f), target)); err != nil {
				t.Errorf("%s links to %s, which does not exist", f, target)
			}
		}
	}
	if len(files) < 8 {
		t.Fatalf("found only %d markdown files", len(files))
	}
}
