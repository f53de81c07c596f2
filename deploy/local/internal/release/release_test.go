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

// TestAPIChangeNeedsVersionBump fails when a service's routes differ from
// its recorded api-surface.txt: with the same VERSION the change was not
// released as a new version; with a new VERSION the record is stale (run
// `make api-surface`).
func TestAPIChangeNeedsVersionBump(t *testing.T) {
	r := root(t)
	for _, svc := range Services {
		t.Run(svc, func(t *testing.T) {
			routes, err := Surface(r, svc)
			if err != nil {
				t.Fatal(err)
			}
			if len(routes) < 3 {
				t.Fatalf("only %d routes found: %v", len(routes), routes)
			}
			recordedAt, recorded, err := RecordedSurface(r, svc)
			if err != nil {
				t.Fatalf("%v; run `make api-surface`", err)
			}
			version, err := Version(r, svc)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(routes, "\n") == strings.Join(recorded, "\n") {
				return
			}
			if recordedAt == version {
				t.Fatalf("%s's API surface changed but its VERSION is still %s: bump %s/VERSION, add a CHANGELOG.md entry, then run `make api-surface`", svc, version, svc)
			}
			t.Fatalf("%s's API surface changed with VERSION %s; record it with `make api-surface`", svc, version)
		})
	}
}

func TestRouteCallFindsRegistrations(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "svc-x", "internal", "httpapi")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := "package httpapi\n\nfunc routes(e E) {\n\tg := e.Group(\"/v2/x\")\n\tg.POST(\"/add\", h)\n\te.GET(\"/healthz\", h)\n\tlog.Println(\"not a route\")\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "routes.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Surface(filepath.Dir(filepath.Dir(filepath.Dir(dir))), "svc-x")
	if err != nil {
		t.Fatal(err)
	}
	want := "GET /healthz,Group /v2/x,POST /add"
	if strings.Join(got, ",") != want {
		t.Fatalf("surface %v, want %s", got, want)
	}
}
