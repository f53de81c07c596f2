package release

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func root(t *testing.T) string {
	t.Helper()
	r, err := RepoRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestSettingsDocIsCurrent fails when docs/settings.md and the config
// structs differ: run `make settings`.
func TestSettingsDocIsCurrent(t *testing.T) {
	want, err := SettingsMarkdown(root(t))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root(t), "docs", "settings.md"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatal("docs/settings.md is out of date with the config structs; run `make settings`")
	}
	for _, must := range []string{"`WEBHOOK_ALLOW_PRIVATE_TARGETS` | `false`", "`RATE_LIMIT_PER_SECOND` | `100` |", "`QDRANT_ADDR`",
		"`EVENT_STREAMS` | `events:activity,events:notify,events:content`"} {
		if !strings.Contains(want, must) {
			t.Errorf("generated settings lack %q", must)
		}
	}
}

func TestSettingsOfNestedAndDefaults(t *testing.T) {
	dir := t.TempDir()
	src := "package x\n\ntype Config struct {\n\t// A is a.\n\tA string `env:\"A, default=x,y\"`\n\tB sub\n\tC int `env:\"C\" mask:\"true\"` // C is c.\n}\n\ntype sub struct {\n\tD bool `env:\"D, default=false\"`\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "c.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := SettingsOf(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []Setting{{"A", "x,y", "A is a.", false}, {"D", "false", "", false}, {"C", "", "C is c.", true}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("setting %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}
