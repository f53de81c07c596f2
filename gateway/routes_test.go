package gateway

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestRouterMatch(t *testing.T) {
	rt := newRouter(nil)
	tests := []struct {
		path       string
		wantPrefix string // "" = no route
	}{
		{"/v2/organizations/get", "/v2/organizations/"},
		{"/v2/organizations/usergroups/add", "/v2/organizations/usergroups/"},
		{"/v2/organizations/documents/migrate", "/v2/organizations/documents/migrate"},
		{"/v2/organizations/documents/migrate/status", "/v2/organizations/documents/migrate"},
		{"/v1/organizations/documents/locations/update", "/v1/organizations/documents/locations/"},
		{"/v1/organizations/documents/get", ""},
		{"/v2/workspace/create", "/v2/workspace/"},
		{"/internal/credentials/lookup", ""},
		{"/v2/users/../../internal/x", ""},
		{"/v2/users/./get", ""},
		{"/v2/users//get", ""},
		{"v2/users/get", ""},
		{"", ""},
	}
	for _, tt := range tests {
		r := rt.match(tt.path)
		got := ""
		if r != nil {
			got = r.prefix
		}
		if got != tt.wantPrefix {
			t.Errorf("match(%q) = %q, want %q", tt.path, got, tt.wantPrefix)
		}
	}
}

func TestRouteTableHasNoInternalOrDuplicatePrefix(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range routeTable {
		if seen[e.prefix] || strings.HasPrefix(e.prefix, "/internal") {
			t.Fatalf("bad prefix %q", e.prefix)
		}
		seen[e.prefix] = true
	}
	rt := newRouter(nil)
	for _, p := range operatorPaths {
		if r := rt.match(p); r == nil || r.service != svcWorkspace {
			t.Fatalf("operator path %q is not routed to workspace", p)
		}
	}
}

func TestCleanPath(t *testing.T) {
	for path, want := range map[string]bool{
		"/": true, "/a": true, "/a/b/": true, "/a.b/c": true, "/a/..b": true,
		"": false, "a": false, "//": false, "/a//b": false, "/./a": false, "/a/.": false, "/a/../b": false, "/..": false,
	} {
		if got := cleanPath(path); got != want {
			t.Errorf("cleanPath(%q) = %v, want %v", path, got, want)
		}
	}
}

func TestRequestIDs(t *testing.T) {
	ids := newRequestIDs()
	for id, keep := range map[string]bool{
		"abc-123": true, "4bf92f35-77b3-4da6": true, "a:b.c_d": true, strings.Repeat("a", 128): true,
		strings.Repeat("a", 129): false, "has space": false, "quote\"": false, "nl\n": false,
	} {
		h := http.Header{"X-Request-Id": {id}}
		got := ids.ensure(&clientFields{h: h}, new(idSlot))
		if (got == id) != keep || h.Get("X-Request-Id") != got {
			t.Errorf("ensure(%q) = %q (keep %v)", id, got, keep)
		}
	}
	a, b := ids.ensure(&clientFields{h: http.Header{}}, new(idSlot)), ids.ensure(&clientFields{h: http.Header{}}, new(idSlot))
	if a == b || !saneRequestID(a) {
		t.Fatalf("generated ids %q %q", a, b)
	}
}

func TestConfigValidate(t *testing.T) {
	valid := func() Config {
		return Config{RedisURL: "redis://x", InternalSecret: "0123456789abcdef", MaxBodyBytes: 1, AuthCacheTTL: time.Second, IdentityURL: "http://identity:8080"}
	}
	tests := []struct {
		name    string
		tune    func(*Config)
		wantErr bool
	}{
		{"valid", func(*Config) {}, false},
		{"no redis", func(c *Config) { c.RedisURL = "" }, true},
		{"short secret", func(c *Config) { c.InternalSecret = "short" }, true},
		{"ttl over a second", func(c *Config) { c.AuthCacheTTL = 2 * time.Second }, true},
		{"ttl zero", func(c *Config) { c.AuthCacheTTL = 0 }, false},
		{"negative keep warm", func(c *Config) { c.AuthCacheKeepWarm = -time.Second }, true},
		{"negative rate", func(c *Config) { c.RateLimitPerSecond = -1 }, true},
		{"zero body limit", func(c *Config) { c.MaxBodyBytes = 0 }, true},
		{"url with path", func(c *Config) { c.ContentURL = "http://content/x" }, true},
		{"url without scheme", func(c *Config) { c.NotifyURL = "notify:8080" }, true},
		{"url trailing slash", func(c *Config) { c.MemoryURL = "https://memory:1/" }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := valid()
			tt.tune(&c)
			if err := c.Validate(); (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
		})
	}
}
