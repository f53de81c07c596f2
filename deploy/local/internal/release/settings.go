// Package release derives the release documents from the sources: the
// settings reference (docs/settings.md) from each binary's config struct,
// and each service's API surface (api-surface.txt next to its VERSION).
// Tests compare both with the files in the repository, so they cannot
// drift.
package release

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/opencollab/backend/pkg/service"
)

// Binaries are the programs with settings: directory, config type.
var Binaries = []struct{ Dir, Name string }{
	{"gateway", "gateway"},
	{"svc-workspace", "svc-workspace"},
	{"svc-identity", "svc-identity"},
	{"svc-activity", "svc-activity"},
	{"svc-notify", "svc-notify"},
	{"svc-content", "svc-content"},
	{"svc-memory", "svc-memory"},
	{"deploy/local", "deploy/local (make run)"},
}

// Setting is one environment variable of a binary.
type Setting struct {
	Name, Default, Meaning string
	Secret                 bool
}

// SettingsOf reads the Config struct of the Go package in dir (and the
// structs it nests) and lists its settings in field order.
func SettingsOf(dir string) ([]Setting, error) {
	structs, err := packageStructs(dir)
	if err != nil {
		return nil, err
	}
	cfg, ok := structs["Config"]
	if !ok {
		return nil, fmt.Errorf("%s: no Config struct", dir)
	}
	// A service's Config embeds service.Base, the settings every service
	// has (a package outside the repository has no frame to embed).
	if root, err := RepoRoot(dir); err == nil {
		frame, err := packageStructs(filepath.Join(root, "pkg", "service"))
		if err != nil {
			return nil, err
		}
		for name, st := range frame {
			structs["service."+name] = st
		}
	}
	var out []Setting
	collectSettings(cfg, structs, &out)
	for i := range out {
		if out[i].Name == "MONGO_DB" && out[i].Default == "" {
			out[i].Default = service.DefaultDatabase(filepath.Base(dir))
		}
	}
	return out, nil
}

func packageStructs(dir string) (map[string]*ast.StructType, error) {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	structs := map[string]*ast.StructType{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok {
				if st, ok := ts.Type.(*ast.StructType); ok {
					structs[ts.Name.Name] = st
				}
			}
			return true
		})
	}
	return structs, nil
}

func collectSettings(st *ast.StructType, structs map[string]*ast.StructType, out *[]Setting) {
	for _, f := range st.Fields.List {
		tag := ""
		if f.Tag != nil {
			tag = strings.Trim(f.Tag.Value, "`")
		}
		env := reflect.StructTag(tag).Get("env")
		if env == "" {
			if nested := structs[typeName(f.Type)]; nested != nil {
				collectSettings(nested, structs, out)
			}
			continue
		}
		name, opts, _ := strings.Cut(env, ",")
		s := Setting{Name: strings.TrimSpace(name), Meaning: meaning(f), Secret: reflect.StructTag(tag).Get("mask") == "true"}
		// The default is the rest of the options: it may hold commas.
		if _, def, ok := strings.Cut(opts, "default="); ok {
			s.Default = def
		}
		if s.Meaning == "" {
			s.Meaning = commonMeaning[s.Name]
		}
		*out = append(*out, s)
	}
}

// typeName is "T" or "pkg.T" for a field of that type.
func typeName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.SelectorExpr:
		if x, ok := t.X.(*ast.Ident); ok {
			return x.Name + "." + t.Sel.Name
		}
	}
	return ""
}

// commonMeaning describes the settings every service has, whose fields
// carry no comment of their own.
var commonMeaning = map[string]string{
	"LISTEN_ADDR":          "Address the service listens on (host:port).",
	"MONGO_URI":            "MongoDB connection string (mongodb://...); required.",
	"MONGO_DB":             "Database of this service on the MongoDB server.",
	"REDIS_URL":            "Redis URL (redis:// or rediss://); required.",
	"INTERNAL_SECRET":      "Shared secret (>= 16 characters) signing calls between the gateway and the services; the same everywhere.",
	"LOG_LEVEL":            "debug, info, warn or error.",
	"WORKSPACE_URL":        "Address of svc-workspace (http://host:port).",
	"IDENTITY_URL":         "Address of svc-identity (http://host:port).",
	"CONTENT_URL":          "Address of svc-content (http://host:port).",
	"NOTIFY_URL":           "Address of svc-notify (http://host:port).",
	"ACTIVITY_URL":         "Address of svc-activity (http://host:port).",
	"MEMORY_URL":           "Address of svc-memory (http://host:port).",
	"BOOTSTRAP_API_KEY":    "API key of a workspace created at start if missing; with BOOTSTRAP_AUTH_TOKEN.",
	"BOOTSTRAP_AUTH_TOKEN": "Auth token of the bootstrap workspace; with BOOTSTRAP_API_KEY.",
}

// meaning is the field's comment on one line.
func meaning(f *ast.Field) string {
	text := ""
	if f.Doc != nil {
		text = f.Doc.Text()
	} else if f.Comment != nil {
		text = f.Comment.Text()
	}
	return strings.Join(strings.Fields(text), " ")
}

// SettingsMarkdown is docs/settings.md for the repository at root.
func SettingsMarkdown(root string) (string, error) {
	var b strings.Builder
	b.WriteString(`# Settings

Generated by ` + "`make settings`" + ` (deploy/local/cmd/settingsdoc) from each binary's config
struct; a test fails when this file and the structs differ. Every setting is an environment
variable and means the same in the service's own binary, in docker-compose.yml, in deploy/k8s
and in ` + "`make run`" + ` (deploy/local), which passes its environment to every service it hosts.
There, the stack itself sets the store addresses, the internal secret, the services' addresses,
LISTEN_ADDR, MONGO_DB and DATA_ENCRYPTION_KEY (kept in DATA_DIR); MONGO_URI, REDIS_URL,
BOOTSTRAP_* and OPERATOR_TOKEN are read once by deploy/local for all of them.

Telemetry is configured with the standard OpenTelemetry variables: OTEL_EXPORTER_OTLP_ENDPOINT
switches OTLP export of traces and metrics on (OTEL_EXPORTER_OTLP_*, OTEL_RESOURCE_ATTRIBUTES and
OTEL_BSP_*/OTEL_METRIC_EXPORT_INTERVAL apply as documented by OpenTelemetry). Every service serves
Prometheus metrics on /metrics of its port; the gateway on METRICS_ADDR.

Secret settings are logged as *** at start.
`)
	for _, bin := range Binaries {
		settings, err := SettingsOf(filepath.Join(root, bin.Dir))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "\n## %s\n\n| Setting | Default | Meaning |\n|---|---|---|\n", bin.Name)
		for _, s := range settings {
			def := "(none)"
			if s.Default != "" {
				def = "`" + s.Default + "`"
			}
			m := s.Meaning
			if s.Secret {
				m = strings.TrimSpace("Secret. " + m)
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", s.Name, def, strings.ReplaceAll(m, "|", `\|`))
		}
	}
	return b.String(), nil
}

// RepoRoot finds the repository root (the folder with go.work) above dir.
func RepoRoot(dir string) (string, error) {
	for d, _ := filepath.Abs(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.work")); err == nil {
			return d, nil
		}
		if d == filepath.Dir(d) {
			return "", fmt.Errorf("no go.work above %s", dir)
		}
	}
}
