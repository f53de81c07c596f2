package release

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/opencollab/backend/gateway"
)

// SurfaceFile sits next to each service's VERSION.
const SurfaceFile = "api-surface.txt"

// Services are the separately released services.
var Services = []string{"gateway", "svc-workspace", "svc-identity", "svc-activity", "svc-notify", "svc-content", "svc-memory"}

// routeMethods are the gin registrations that make the surface.
var routeMethods = map[string]bool{"POST": true, "GET": true, "PUT": true, "DELETE": true, "PATCH": true, "Group": true, "Handle": true, "Any": true}

// Surface is the API surface of a service, one line per route: the
// gateway's route table, or for a service every route and group path its
// HTTP layer registers (internal/httpapi), as "POST /v2/users/add" or
// "Group /v2/activities".
func Surface(root, svc string) ([]string, error) {
	if svc == "gateway" {
		var out []string
		for _, r := range gateway.Routes() {
			out = append(out, fmt.Sprintf("%s %s -> %s (%s)", r.Method, r.Path, r.Service, r.Auth))
		}
		slices.Sort(out)
		return out, nil
	}
	dir := filepath.Join(root, svc, "internal", "httpapi")
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("%s: no HTTP layer in %s", svc, dir)
	}
	var out []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			return nil, err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if line, ok := routeCall(n); ok {
				out = append(out, line)
			}
			return true
		})
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// routeCall recognises x.POST("/path", ...) and the like.
func routeCall(n ast.Node) (string, bool) {
	call, ok := n.(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return "", false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || !routeMethods[sel.Sel.Name] {
		return "", false
	}
	arg := 0
	if sel.Sel.Name == "Handle" && len(call.Args) > 1 {
		arg = 1 // Handle(method, path, ...)
	}
	lit, ok := call.Args[arg].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	path, err := strconv.Unquote(lit.Value)
	if err != nil || (path != "" && !strings.HasPrefix(path, "/")) {
		return "", false
	}
	return sel.Sel.Name + " " + path, true
}

// RecordedSurface reads svc's api-surface.txt: the version it was recorded
// at and its routes.
func RecordedSurface(root, svc string) (version string, routes []string, err error) {
	b, err := os.ReadFile(filepath.Join(root, svc, SurfaceFile))
	if err != nil {
		return "", nil, err
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if v, ok := strings.CutPrefix(line, "# version "); ok {
			version = strings.TrimSpace(v)
		} else if line != "" && !strings.HasPrefix(line, "#") {
			routes = append(routes, line)
		}
	}
	return version, routes, nil
}

// FormatSurface is the content of api-surface.txt.
func FormatSurface(svc, version string, routes []string) string {
	return "# API surface of " + svc + ", recorded by `make api-surface`. A change here needs a new\n" +
		"# VERSION (and a CHANGELOG.md entry); the test in deploy/local/internal/release checks it.\n" +
		"# version " + version + "\n" + strings.Join(routes, "\n") + "\n"
}

// Version is svc/VERSION.
func Version(root, svc string) (string, error) {
	b, err := os.ReadFile(filepath.Join(root, svc, "VERSION"))
	return strings.TrimSpace(string(b)), err
}
