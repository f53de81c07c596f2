package gateway

import (
	"errors"
	"fmt"
	"net/url"
	"time"
)

// Config is the gateway's configuration, read from the environment once.
type Config struct {
	ListenAddr     string `env:"LISTEN_ADDR, default=:8080"`
	RedisURL       string `env:"REDIS_URL" mask:"true"`
	InternalSecret string `env:"INTERNAL_SECRET" mask:"true"`
	// OperatorToken authenticates the operator paths; empty disables them.
	OperatorToken string `env:"OPERATOR_TOKEN" mask:"true"`

	// Service addresses (scheme://host[:port]). An empty one means the
	// service is not deployed: its paths answer UNAVAILABLE.
	WorkspaceURL string `env:"WORKSPACE_URL"`
	IdentityURL  string `env:"IDENTITY_URL"`
	ContentURL   string `env:"CONTENT_URL"`
	NotifyURL    string `env:"NOTIFY_URL"`
	ActivityURL  string `env:"ACTIVITY_URL"`
	MemoryURL    string `env:"MEMORY_URL"`

	// RateLimitPerSecond is the per-API-key request limit; 0 disables it.
	RateLimitPerSecond int64 `env:"RATE_LIMIT_PER_SECOND, default=100"`
	// MaxBodyBytes bounds request bodies (default 5 MiB, api.MaxBodyBytes).
	MaxBodyBytes int64 `env:"MAX_BODY_BYTES, default=5242880"`
	// AuthCacheTTL is how long a credential lookup is trusted in process.
	// A token reset must take effect within one second, so it is at most 1s;
	// 0 turns the in-process cache off (every request asks Redis).
	AuthCacheTTL time.Duration `env:"AUTH_CACHE_TTL, default=1s"`
	// AuthCacheKeepWarm keeps the credentials of an API key used within it
	// confirmed in the background: every AUTH_CACHE_TTL/2 one Redis MGET
	// per 500 keys (at most 10,000 keys), so a key called less often than
	// every AUTH_CACHE_TTL does not wait on Redis for its credentials. The
	// reset deadline is unchanged. 0 turns it off.
	AuthCacheKeepWarm time.Duration `env:"AUTH_CACHE_KEEP_WARM, default=5m"`
	LogLevel          string        `env:"LOG_LEVEL, default=info"`
	// MetricsAddr serves /metrics (Prometheus) on a listener of its own, so
	// the public port does not expose it; empty: not served.
	MetricsAddr string `env:"METRICS_ADDR, default=:9090"`
	// MaxRealtimeTunnels caps this replica's open WebSocket tunnels (realtime
	// sync); over it an upgrade is refused with UNAVAILABLE before the
	// service is dialled. Each tunnel holds two sockets and, while idle, two
	// kernel pipes (6 file descriptors) and two goroutines (~16 KiB), so the
	// default needs ~60 000 descriptors. Connections handed to svc-content
	// in the same process (deploy/local) count too, until they close. 0
	// refuses every upgrade.
	MaxRealtimeTunnels int `env:"MAX_REALTIME_TUNNELS, default=10000"`
	// HTTPServer picks the inbound HTTP/1.1 server: the lean "h1" or
	// "net/http" (see inbound.go).
	HTTPServer string `env:"HTTP_SERVER, default=h1"`
	// GCPercent is Go's GOGC for the gateway binary ("off" or a
	// percentage; make run, one process for all services, keeps Go's).
	// Its garbage is small per-request objects over a small live heap, so
	// it defaults to 400, not Go's 100: a quarter of the collections, for a
	// heap of up to five times the live one (see gcsettings.go).
	GCPercent string `env:"GOGC, default=400"`
	// MemoryLimit is Go's GOMEMLIMIT for the gateway: a soft limit (off or
	// bytes, suffix B/KiB/MiB/GiB/TiB) near which the collector runs as
	// often as needed, so GOGC=400 cannot grow a large heap five-fold.
	MemoryLimit string `env:"GOMEMLIMIT, default=512MiB"`
}

// maxAuthCacheTTL is the token-reset deadline of the issue.
const maxAuthCacheTTL = time.Second

// Validate checks the configuration.
func (c *Config) Validate() error {
	var errs []error
	if c.RedisURL == "" {
		errs = append(errs, errors.New("REDIS_URL is required"))
	}
	if err := checkInbound(c.HTTPServer); err != nil {
		errs = append(errs, err)
	}
	if len(c.InternalSecret) < 16 {
		errs = append(errs, errors.New("INTERNAL_SECRET must have at least 16 characters"))
	}
	for name, u := range c.serviceURLs() {
		if err := checkServiceURL(u); err != nil {
			errs = append(errs, fmt.Errorf("%s_URL: %w", envName(name), err))
		}
	}
	if _, err := parseGCPercent(c.GCPercent); err != nil {
		errs = append(errs, err)
	}
	if _, err := parseMemoryLimit(c.MemoryLimit); err != nil {
		errs = append(errs, err)
	}
	if c.RateLimitPerSecond < 0 {
		errs = append(errs, errors.New("RATE_LIMIT_PER_SECOND must be >= 0"))
	}
	if c.MaxRealtimeTunnels < 0 {
		errs = append(errs, errors.New("MAX_REALTIME_TUNNELS must be >= 0"))
	}
	if c.MaxBodyBytes <= 0 {
		errs = append(errs, errors.New("MAX_BODY_BYTES must be > 0"))
	}
	if c.AuthCacheTTL < 0 || c.AuthCacheTTL > maxAuthCacheTTL {
		errs = append(errs, fmt.Errorf("AUTH_CACHE_TTL must be between 0 and %s", maxAuthCacheTTL))
	}
	if c.AuthCacheKeepWarm < 0 {
		errs = append(errs, errors.New("AUTH_CACHE_KEEP_WARM must be >= 0"))
	}
	return errors.Join(errs...)
}

// serviceURLs maps the service keys of the routing table to their address.
func (c *Config) serviceURLs() map[service]string {
	return map[service]string{
		svcWorkspace: c.WorkspaceURL,
		svcIdentity:  c.IdentityURL,
		svcContent:   c.ContentURL,
		svcNotify:    c.NotifyURL,
		svcActivity:  c.ActivityURL,
		svcMemory:    c.MemoryURL,
	}
}

func envName(s service) string {
	switch s {
	case svcWorkspace:
		return "WORKSPACE"
	case svcIdentity:
		return "IDENTITY"
	case svcContent:
		return "CONTENT"
	case svcNotify:
		return "NOTIFY"
	case svcActivity:
		return "ACTIVITY"
	default:
		return "MEMORY"
	}
}

// checkServiceURL accepts "" (not deployed) or scheme://host[:port]. A path
// is refused: requests keep their own path, and joining one in would cost
// an allocation per request for no use.
func checkServiceURL(raw string) error {
	if raw == "" {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("%q: scheme must be http or https", raw)
	}
	if u.Host == "" {
		return fmt.Errorf("%q: host is missing", raw)
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		return fmt.Errorf("%q: must not have a path or query", raw)
	}
	return nil
}
