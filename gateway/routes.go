package gateway

import (
	"net/http"
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
// Every operation under these prefixes is described in openapi/spec (the
// tests here and in deploy/local/e2e fail on any difference).
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
	// No /v2/recordings/ prefix: no service has a recordings operation (the
	// OpenAPI drift test refuses a prefix without documented operations).
	{"/v2/livestate/", svcContent}, // broadcast to realtime clients

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

// realtimeTable lists the WebSocket upgrade endpoints of realtime sync:
// GET with Upgrade: websocket on exactly these path shapes ({name} is one
// non-empty segment). They are not authenticated by API-key headers
// (browsers cannot send them): svc-content checks the user token in the
// URL. Other methods on these paths follow routeTable as before.
var realtimeTable = []struct {
	pattern string
	service service
}{
	{"/v2/crdt/sync/{org}/{doc}/{editor}", svcContent}, // y-websocket, ?token=JWT
	{"/v2/crdt/hocuspocus", svcContent},                // Hocuspocus, token in its auth message
}

// RouteInfo describes one entry of the gateway's public surface.
type RouteInfo struct {
	Method  string // "POST", or "GET" for WebSocket upgrades
	Path    string // a prefix (ending in "/" or not), or a realtime pattern
	Service string
	// Auth: "workspace" (API key + auth token), "operator" (operator
	// token) or "realtime" (none at the gateway; the service checks the
	// user token).
	Auth string
}

// Routes lists what the gateway serves: every prefix, operator path and
// realtime upgrade path, in table order.
func Routes() []RouteInfo {
	var out []RouteInfo
	for _, e := range routeTable {
		out = append(out, RouteInfo{Method: "POST", Path: e.prefix, Service: string(e.service), Auth: "workspace"})
	}
	for _, p := range operatorPaths {
		out = append(out, RouteInfo{Method: "POST", Path: p, Service: string(svcWorkspace), Auth: "operator"})
	}
	for _, e := range realtimeTable {
		out = append(out, RouteInfo{Method: "GET", Path: e.pattern, Service: string(e.service), Auth: "realtime"})
	}
	return out
}

// route is one resolved entry: where a prefix goes and how it is proxied.
type route struct {
	prefix  string
	service service
	// spanName is precomputed so tracing costs no string building.
	spanName string
	// proxy is nil when the service is not deployed.
	proxy *serviceProxy
	// realtime marks a WebSocket upgrade pattern.
	realtime bool
	// local, on a realtime route, is the service's handler in this
	// process: upgrades are handed to it instead of tunnelled (handover.go).
	local http.Handler
}

// router finds the route of a path. With ~20 prefixes a scan over the
// prefixes sorted longest first is both the simplest and a fast match.
type router struct {
	routes   []*route
	realtime []*route
	operator map[string]bool
}

func newRouter(proxies map[service]*serviceProxy) *router {
	rt := &router{operator: make(map[string]bool, len(operatorPaths))}
	for _, e := range routeTable {
		rt.routes = append(rt.routes, &route{prefix: e.prefix, service: e.service,
			spanName: "gateway " + e.prefix, proxy: proxies[e.service]})
	}
	for _, e := range realtimeTable {
		rt.realtime = append(rt.realtime, &route{prefix: e.pattern, service: e.service,
			spanName: "gateway realtime " + e.pattern, proxy: proxies[e.service], realtime: true})
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

// matchRealtime returns the realtime route whose pattern path has, or nil.
func (rt *router) matchRealtime(path string) *route {
	if !cleanPath(path) {
		return nil
	}
	for _, r := range rt.realtime {
		if matchPattern(r.prefix, path) {
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
