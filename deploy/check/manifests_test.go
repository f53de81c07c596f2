package check

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

// repoRoot is the repository root: go test runs in deploy/check.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.work")); err != nil {
		t.Fatalf("repository root %s has no go.work: %v", root, err)
	}
	return root
}

// workModules returns the module directories named in go.work, slash-separated and without
// "./" (e.g. "pkg", "deploy/local").
func workModules(t *testing.T) []string {
	t.Helper()
	name := filepath.Join(repoRoot(t), "go.work")
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	wf, err := modfile.ParseWork(name, data, nil)
	if err != nil {
		t.Fatalf("parse go.work: %v", err)
	}
	var dirs []string
	for _, u := range wf.Use {
		dirs = append(dirs, path.Clean(filepath.ToSlash(u.Path)))
	}
	if len(dirs) == 0 {
		t.Fatal("go.work uses no module")
	}
	return dirs
}

// deployedServices are the modules that ship as their own image and Deployment: the gateway
// and every svc-*. Each has cmd/<name>/main.go, a <name>/Dockerfile, a compose service and a
// Kubernetes Deployment + Service of the same name.
func deployedServices(t *testing.T) []string {
	t.Helper()
	var services []string
	for _, dir := range workModules(t) {
		if dir == "gateway" || strings.HasPrefix(dir, "svc-") {
			services = append(services, dir)
		}
	}
	slices.Sort(services)
	if !slices.Contains(services, "gateway") {
		t.Fatalf("go.work has no gateway module: %v", services)
	}
	return services
}

// backendServices are the deployed services behind the gateway.
func backendServices(t *testing.T) []string {
	t.Helper()
	return slices.DeleteFunc(deployedServices(t), func(s string) bool { return s == "gateway" })
}

// urlVar is the gateway's env var that holds a backend service's base URL:
// svc-workspace -> WORKSPACE_URL.
func urlVar(service string) string {
	return strings.ToUpper(strings.TrimPrefix(service, "svc-")) + "_URL"
}

// gatewayURLVars are all *_URL variables the gateway reads (empty = service not deployed).
var gatewayURLVars = []string{
	"WORKSPACE_URL", "IDENTITY_URL", "CONTENT_URL", "NOTIFY_URL", "ACTIVITY_URL", "MEMORY_URL",
}

// usesMongo tells which services get MONGO_URI / MONGO_DB (all but the gateway).
func usesMongo(service string) bool { return service != "gateway" }

// secretKeys are the env variables that hold secrets: never a ConfigMap key or a literal in a
// manifest, only a key of Secret collab-secrets.
var secretKeys = []string{
	"INTERNAL_SECRET", "OPERATOR_TOKEN", "MONGO_URI", "REDIS_URL", "BOOTSTRAP_API_KEY",
	"BOOTSTRAP_AUTH_TOKEN", "DATA_ENCRYPTION_KEY", "QDRANT_API_KEY", "EMBEDDINGS_API_KEY",
	"CHAT_API_KEY",
}

// optionalSecrets may be missing from collab-secrets (optional secretKeyRef): the bootstrap
// workspace, and the keys of a Qdrant or model endpoint that may need none.
var optionalSecrets = []string{
	"BOOTSTRAP_API_KEY", "BOOTSTRAP_AUTH_TOKEN", "QDRANT_API_KEY", "EMBEDDINGS_API_KEY", "CHAT_API_KEY",
}

// serviceSecrets are the required secrets of one service beyond INTERNAL_SECRET, REDIS_URL
// and (usesMongo) MONGO_URI.
var serviceSecrets = map[string][]string{
	"gateway":       {"OPERATOR_TOKEN"},
	"svc-workspace": {"DATA_ENCRYPTION_KEY"},
}

func TestServiceHelpers(t *testing.T) {
	if got := urlVar("svc-workspace"); got != "WORKSPACE_URL" {
		t.Errorf("urlVar(svc-workspace) = %q", got)
	}
	for _, s := range backendServices(t) {
		if !slices.Contains(gatewayURLVars, urlVar(s)) {
			t.Errorf("service %s: the gateway has no %s variable; add it to gatewayURLVars and the gateway config", s, urlVar(s))
		}
	}
}
