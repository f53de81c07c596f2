// Package nodetool finds the npm helper packages under tools/ that tests
// drive with node (stock JavaScript clients and libraries). scripts/test.sh
// installs them; without them a test skips, except under CI=true, where it
// fails so a missing install cannot pass unnoticed.
package nodetool

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Dir returns tools/<tool> of the repository, after checking that node is
// installed and that the package's node_modules holds module (e.g.
// "jsdom").
func Dir(t testing.TB, tool, module string) string {
	t.Helper()
	dir := filepath.Join(repoRoot(t), "tools", tool)
	var missing string
	if _, err := exec.LookPath("node"); err != nil {
		missing = "node is not installed"
	} else if _, err := os.Stat(filepath.Join(dir, "node_modules", module, "package.json")); err != nil {
		missing = module + " is not installed in tools/" + tool + " (run: npm ci --prefix tools/" + tool + ")"
	}
	if missing != "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("tools/%s cannot run: %s", tool, missing)
		}
		t.Skipf("skipping: %s", missing)
	}
	return dir
}

// repoRoot is the nearest folder above the working directory holding
// go.work.
func repoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.work above the working directory")
		}
		dir = parent
	}
}
