package gateway

import (
	"sort"
	"strings"
)

// service names a backend in the routing table.
type service string

const (
	svcIdentity  service = "identity"
	svcContent   service = "content"
	svcNotify    service = "notify"
	svcActivity  service = "activity"
	svcWorkspace service = "workspace"
	svcMemory    service = "memory"
)

// routeTable is the public surface of the whole system (DESIGN.md, "Who owns
// what"): path prefix → owning service. The most specific prefix wins.
var routeTable = []struct {
	prefix  string
	service service
}{
	{"/v2/auth/", svcIdentity},
	{"/v2/users/", svcIdentity},
	{"/v1/users/", svcIdentity},
	{"/v1/organizations/usergroups/", svcIdentity},
	{"/v2/organizations/usergroups/", svcIdentity},
	{"/v1/organizations/folders/", svcIdentity},
	{"/v2/organizations/", svcIdentity},

	{"/v1/organizations/documents/locations/", svcContent},
	{"/v2/organizations/documents/migrate", svcContent}, // and .../migrate/status
	{"/v2/crdt/", svcContent},
	{"/v2/commentannotations/", svcContent},
	{"/v2/recordings/", svcContent},

	{"/v1/notifications/", svcNotify},
	{"/v2/notifications/", svcNotify},

	{"/v2/activities/", svcActivity},

	{"/v2/workspace/", svcWorkspace},

	{"/v2/agents/", svcMemory},
	{"/v2/memory/", svcMemory},
}

// operatorPaths are authenticated by the operator token instead of
// workspace credentials (DESIGN.md: create workspace, create API key, reset
// auth token). Add further operator-only paths here.
var operatorPaths = []string{
	"/v2/workspace/create",
	"/v2/workspace/authtoken/create",
	"/v2/workspace/authtoken/reset",
	"/v2/workspace/features/update",
	"/v2/workspace/features/get",
}

// route is one resolved entry: where a prefix goes and how it is proxied.
type route struct {
	prefix  string
	service service
	// spanName is precomputed so tracing costs no string building.
	spanName string
	// proxy is nil when the service is not deployed.
	proxy *serviceProxy
}

// router finds the route of a path. With ~20 prefixes a scan over the
// prefixes sorted longest first is both the simplest and a fast match.
type router struct {
	routes   []*route
	operator map[string]bool
}

func newRouter(proxies map[service]*serviceProxy) *router {
	rt := &router{operator: make(map[string]bool, len(operatorPaths))}
	for _, e := range routeTable {
		rt.routes = append(rt.routes, &route{
			prefix:   e.prefix,
			service:  e.service,
			spanName: "gateway " + e.prefix,
			proxy:    proxies[e.service],
		})
	}
	sort.SliceStable(rt.routes, func(i, j int) bool { return len(rt.routes[i].prefix) > len(rt.routes[j].prefix) })
	for _, p := range operatorPaths {
		rt.operator[p] = true
	}
	return rt
}

// match returns the route for path, or nil. Paths with empty or dot
// segments are refused so "/v2/users/../../internal/x" cannot slip past
// the prefix check into an internal route.
func (rt *router) match(path string) *route {
	if !cleanPath(path) {
		return nil
	}
	for _, r := range rt.routes {
		if strings.HasPrefix(path, r.prefix) {
			return r
		}
	}
	return nil
}

// isOperator reports whether path is an operator-only path.
func (rt *router) isOperator(path string) bool { return rt.operator[path] }

// cleanPath reports whether path is absolute and has no "//", "." or ".."
// segment. It does not allocate.
func cleanPath(path string) bool {
	if path == "" || path[0] != '/' {
		return false
	}
	start := 1
	for i := 1; i <= len(path); i++ {
		if i < len(path) && path[i] != '/' {
			continue
		}
		seg := path[start:i]
		if seg == "." || seg == ".." || (seg == "" && i < len(path)) {
			return false
		}
		start = i + 1
	}
	return true
}
