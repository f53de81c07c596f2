package check

import (
	"context"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/types"
)

// composeEnv is what a developer's .env supplies: every variable the file requires.
var composeEnv = map[string]string{
	"INTERNAL_SECRET":     "0123456789abcdef0123456789abcdef",
	"OPERATOR_TOKEN":      "operator-token-for-tests",
	"MONGO_ROOT_PASSWORD": "mongo-password-for-tests",
	"REDIS_PASSWORD":      "redis-password-for-tests",
	"DATA_ENCRYPTION_KEY": "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
	"QDRANT_API_KEY":      "qdrant-api-key-for-tests",
}

func loadCompose(t *testing.T, env map[string]string) (*types.Project, error) {
	t.Helper()
	root := repoRoot(t)
	return loader.LoadWithContext(context.Background(), types.ConfigDetails{
		WorkingDir:  root,
		ConfigFiles: []types.ConfigFile{{Filename: filepath.Join(root, "docker-compose.yml")}},
		Environment: env,
	})
}

func TestComposeRequiresSecrets(t *testing.T) {
	for name := range composeEnv {
		t.Run(name, func(t *testing.T) {
			env := map[string]string{}
			for k, v := range composeEnv {
				if k != name {
					env[k] = v
				}
			}
			_, err := loadCompose(t, env)
			if err == nil || !strings.Contains(err.Error(), name) {
				t.Errorf("loading without %s: err = %v, want an error naming it", name, err)
			}
		})
	}
}

func TestCompose(t *testing.T) {
	p, err := loadCompose(t, composeEnv)
	if err != nil {
		t.Fatalf("load docker-compose.yml: %v", err)
	}
	for _, name := range []string{"mongo", "redis", "qdrant"} {
		s, err := p.GetService(name)
		if err != nil {
			t.Fatalf("service %s: %v", name, err)
		}
		if s.HealthCheck == nil || len(s.HealthCheck.Test) == 0 {
			t.Errorf("service %s has no healthcheck (our services wait for it)", name)
		}
	}
	for _, name := range deployedServices(t) {
		t.Run(name, func(t *testing.T) {
			s, err := p.GetService(name)
			if err != nil {
				t.Fatalf("%v (copy the svc-identity block of docker-compose.yml)", err)
			}
			checkComposeService(t, p, s)
		})
	}
	t.Run("gateway routes", func(t *testing.T) { checkGatewayURLs(t, p) })
	t.Run("svc-memory qdrant", func(t *testing.T) { checkComposeQdrant(t, p) })
}

func checkComposeService(t *testing.T, p *types.Project, s types.ServiceConfig) {
	root := repoRoot(t)
	if s.Build == nil {
		t.Fatal("no build section")
	}
	if filepath.Clean(s.Build.Context) != root {
		t.Errorf("build context %q, want the repository root %q", s.Build.Context, root)
	}
	if filepath.ToSlash(s.Build.Dockerfile) != "Dockerfile" {
		t.Errorf("build dockerfile %q, want the one Dockerfile", s.Build.Dockerfile)
	}
	if arg := s.Build.Args["SERVICE"]; arg == nil || *arg != s.Name {
		t.Errorf("build arg SERVICE = %v, want %s", arg, s.Name)
	}
	if want := "opencollab/" + s.Name + ":v" + serviceVersion(t, s.Name); s.Image != want {
		t.Errorf("image %q, want %q (the service's VERSION)", s.Image, want)
	}
	// The build arg is the version the binary reports (telemetry's
	// service.version, the image label): it must be the tag's.
	if arg, want := s.Build.Args["VERSION"], serviceVersion(t, s.Name); arg == nil || *arg != want {
		got := "none"
		if arg != nil {
			got = *arg
		}
		t.Errorf("build arg VERSION = %s, want %s (the service's VERSION)", got, want)
	}
	if !s.ReadOnly {
		t.Error("read_only is not true")
	}
	if u, _, _ := strings.Cut(s.User, ":"); u == "" || u == "0" || u == "root" {
		t.Errorf("user %q: want a non-root user (65532:65532)", s.User)
	}
	if !slices.Contains(s.CapDrop, "ALL") {
		t.Errorf("cap_drop %v lacks ALL", s.CapDrop)
	}
	if !slices.ContainsFunc(s.SecurityOpt, func(o string) bool { return strings.HasPrefix(o, "no-new-privileges") }) {
		t.Errorf("security_opt %v lacks no-new-privileges", s.SecurityOpt)
	}

	env := func(k string) string {
		if v := s.Environment[k]; v != nil {
			return *v
		}
		return ""
	}
	if got := env("INTERNAL_SECRET"); got != composeEnv["INTERNAL_SECRET"] {
		t.Errorf("INTERNAL_SECRET = %q, want the value from the environment", got)
	}
	if got := env("REDIS_URL"); !strings.HasPrefix(got, "redis://") || !strings.Contains(got, "@redis:6379") {
		t.Errorf("REDIS_URL = %q, want redis://...@redis:6379/...", got)
	}
	if got := env("LISTEN_ADDR"); got != ":8080" {
		t.Errorf("LISTEN_ADDR = %q, want :8080", got)
	}
	for _, k := range serviceSecrets[s.Name] {
		if got := env(k); got != composeEnv[k] {
			t.Errorf("%s = %q, want the value from the environment", k, got)
		}
	}
	stores := []string{"redis"}
	if usesMongo(s.Name) {
		stores = append(stores, "mongo")
		if got := env("MONGO_URI"); !strings.HasPrefix(got, "mongodb://") || !strings.Contains(got, "@mongo:27017") {
			t.Errorf("MONGO_URI = %q, want mongodb://...@mongo:27017/...", got)
		}
		if want := "collab_" + strings.TrimPrefix(s.Name, "svc-"); env("MONGO_DB") != want {
			t.Errorf("MONGO_DB = %q, want %q", env("MONGO_DB"), want)
		}
	}
	for _, store := range stores {
		if d, ok := s.DependsOn[store]; !ok || d.Condition != types.ServiceConditionHealthy {
			t.Errorf("depends_on %s: got %+v, want condition service_healthy", store, d)
		}
	}
}

func checkGatewayURLs(t *testing.T, p *types.Project) {
	gw, err := p.GetService("gateway")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(gw.Ports, func(pc types.ServicePortConfig) bool {
		return pc.Published == "8080" && pc.Target == 8080
	}) {
		t.Errorf("gateway ports %+v: want 8080:8080", gw.Ports)
	}
	for _, k := range gatewayURLVars {
		v, ok := gw.Environment[k]
		if !ok {
			t.Errorf("gateway env lacks %s (set it, empty when the service is not deployed)", k)
			continue
		}
		if v == nil || *v == "" {
			continue
		}
		u, err := url.Parse(*v)
		if err != nil || u.Scheme != "http" || u.Port() != "8080" {
			t.Errorf("gateway %s = %q, want http://<service>:8080", k, *v)
			continue
		}
		if _, err := p.GetService(u.Hostname()); err != nil {
			t.Errorf("gateway %s points at %q, which is not a service in docker-compose.yml", k, u.Hostname())
		}
	}
	for _, s := range backendServices(t) {
		want := "http://" + s + ":8080"
		if v := gw.Environment[urlVar(s)]; v == nil || *v != want {
			t.Errorf("gateway %s is not %s: the gateway would not route to %s", urlVar(s), want, s)
		}
	}
}
