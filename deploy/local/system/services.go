package system

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"path/filepath"
	"sync"

	"github.com/redis/go-redis/v9"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/opencollab/backend/gateway"
	"github.com/opencollab/backend/pkg/config"
	"github.com/opencollab/backend/pkg/logging"
	"github.com/opencollab/backend/pkg/server"
	"github.com/opencollab/backend/pkg/telemetry"
	svcactivity "github.com/opencollab/backend/svc-activity"
	svccontent "github.com/opencollab/backend/svc-content"
	svcidentity "github.com/opencollab/backend/svc-identity"
	svcmemory "github.com/opencollab/backend/svc-memory"
	svcnotify "github.com/opencollab/backend/svc-notify"
	svcworkspace "github.com/opencollab/backend/svc-workspace"
)

type redisClient = redis.Client

// serviceNames are the services hosted in process, in start order.
var serviceNames = []string{"workspace", "identity", "activity", "notify", "content", "memory"}

// wiring is what every service constructor needs.
type wiring struct {
	o        Options
	mc       *mongo.Client
	rdb      *redis.Client
	mongoURI string
	redisURL string
	secret   string
	urls     map[string]string
}

func (w wiring) db(name string) *mongo.Database { return w.mc.Database(w.o.DBPrefix + name) }

// startServices listens on a loopback port per service first, so each one
// is built knowing the others' addresses, then serves them and the gateway.
func (s *System) startServices(ctx context.Context, o Options, mc *mongo.Client, mongoURI, redisURL string) error {
	rdb, err := connectRedis(ctx, s, redisURL)
	if err != nil {
		return err
	}
	s.InternalSecret = randomHex(32) // one process: the secret never leaves it
	hosted := hostedServices(o.Services)
	listeners := map[string][]*server.Server{}
	for _, name := range hosted {
		n := 1
		if name == "content" && o.ContentReplicas > 1 {
			n = o.ContentReplicas
		}
		var addrs []string
		for range n {
			srv, err := server.Listen("127.0.0.1:0")
			if err != nil {
				return err
			}
			listeners[name] = append(listeners[name], srv)
			addrs = append(addrs, srv.Addr())
			s.ServiceURLs[name] = srv.URL()
		}
		if n > 1 {
			b, err := startBalancer(ctx, addrs)
			if err != nil {
				return err
			}
			s.ServiceURLs[name] = b.URL()
		}
	}
	w := wiring{o: o, mc: mc, rdb: rdb, mongoURI: mongoURI, redisURL: redisURL, secret: s.InternalSecret, urls: s.ServiceURLs}
	var closers []func()
	// Background work (event consumers, workers) stops before the stores
	// close; the services stop concurrently since each consumer may wait
	// out a blocking Redis read.
	defer func() { s.stops = append(s.stops, func() { closeAll(closers) }) }()
	var content http.Handler
	for _, name := range hosted {
		sctx := telemetry.WithService(ctx, "svc-"+name)
		for _, ln := range listeners[name] {
			svc, err := build(sctx, name, w)
			if err != nil {
				return fmt.Errorf("svc-%s: %w", name, err)
			}
			closers = append(closers, svc.Close)
			s.ServiceRoutes[name] = svc.Routes()
			s.serveOn(sctx, ln, svc.Handler())
			if name == "content" && len(listeners[name]) == 1 {
				content = inProcess(sctx, svc.Handler())
			}
		}
	}
	return s.startGateway(telemetry.WithService(ctx, gateway.Name), w, content)
}

// soloContent reports whether svc-content runs as one replica on this
// process's own embedded stores: then no other replica can hear its
// realtime fan-out. Named stores may be shared with other processes
// (another system, localproc's services), whose replicas must hear it.
func soloContent(o Options) bool {
	return o.ContentReplicas <= 1 && o.RedisURL == "" && o.MongoURI == ""
}

// inProcess serves h as the service's own server does, on the service's
// context (its telemetry and logs), for requests the gateway hands over.
// The trace context travels in the request's headers, as over the wire.
func inProcess(ctx context.Context, h http.Handler) http.Handler {
	base := context.WithoutCancel(ctx)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(base))
	})
}

// startGateway serves the gateway, and its /metrics when METRICS_ADDR is
// among the settings (Options.Env). content, when set, is the only
// svc-content replica's handler: the gateway hands realtime upgrades to
// it in process. Several replicas sit behind a balancer, as in a cluster,
// and the gateway tunnels to them.
func (s *System) startGateway(ctx context.Context, w wiring, content http.Handler) error {
	gw, metricsAddr, err := newGateway(ctx, w, content)
	if err != nil {
		return fmt.Errorf("gateway: %w", err)
	}
	// Stops run after every server has drained, and before Redis closes.
	s.stops = append(s.stops, gw.Close)
	if metricsAddr != "" {
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", telemetry.MetricsHandler())
		if s.MetricsURL, err = s.serve(ctx, metricsAddr, mux); err != nil {
			return err
		}
	}
	s.GatewayURL, err = s.serve(ctx, w.o.GatewayAddr, gw.Handler())
	return err
}

// hostedServices keeps the order of serviceNames; workspace is always in
// (the gateway cannot authenticate without it).
func hostedServices(wanted []string) []string {
	if len(wanted) == 0 {
		return serviceNames
	}
	keep := map[string]bool{"workspace": true}
	for _, n := range wanted {
		keep[n] = true
	}
	var out []string
	for _, n := range serviceNames {
		if keep[n] {
			out = append(out, n)
		}
	}
	return out
}

// hostedService is what the system needs of a service.
type hostedService interface {
	Handler() http.Handler
	Routes() []string
	Close()
}

// build constructs one service from its settings (Options.Env, else the
// defaults) plus the local wiring: store addresses, the internal secret,
// the other services' addresses and the bootstrap credentials are the
// stack's. ctx is marked with the service already.
func build(ctx context.Context, name string, w wiring) (hostedService, error) {
	log := w.o.Logger.With(logging.ServiceKey, "svc-"+name)
	switch name {
	case "workspace":
		var c svcworkspace.Config
		if err := config.Read(ctx, &c, w.o.Env); err != nil {
			return nil, err
		}
		c.MongoURI, c.RedisURL, c.InternalSecret = w.mongoURI, w.redisURL, w.secret
		c.BootstrapAPIKey, c.BootstrapAuthToken = w.o.Credentials.APIKey, w.o.Credentials.AuthToken
		c.DataEncryptionKey = w.o.Credentials.DataKey
		c.WebhookAllowPrivateTargets = c.WebhookAllowPrivateTargets || w.o.WebhookAllowPrivateTargets
		svc, err := svcworkspace.New(ctx, c, svcworkspace.Deps{DB: w.db(name), Redis: w.rdb, Logger: log})
		if err != nil {
			return nil, err
		}
		return svc, nil
	case "identity":
		var c svcidentity.Config
		if err := config.Read(ctx, &c, w.o.Env); err != nil {
			return nil, err
		}
		c.MongoURI, c.RedisURL, c.InternalSecret = w.mongoURI, w.redisURL, w.secret
		c.WorkspaceURL, c.ContentURL, c.NotifyURL = w.urls["workspace"], w.urls["content"], w.urls["notify"]
		c.ActivityURL, c.MemoryURL = w.urls["activity"], w.urls["memory"]
		svc, err := svcidentity.New(ctx, c, svcidentity.Deps{DB: w.db(name), Redis: w.rdb, Logger: log})
		if err != nil {
			return nil, err
		}
		return svc, nil
	case "activity":
		var c svcactivity.Config
		if err := config.Read(ctx, &c, w.o.Env); err != nil {
			return nil, err
		}
		c.MongoURI, c.RedisURL, c.InternalSecret, c.WorkspaceURL = w.mongoURI, w.redisURL, w.secret, w.urls["workspace"]
		svc, err := svcactivity.New(ctx, c, svcactivity.Deps{DB: w.db(name), Redis: w.rdb, Logger: log})
		if err != nil {
			return nil, err
		}
		return svc, nil
	case "notify":
		var c svcnotify.Config
		if err := config.Read(ctx, &c, w.o.Env); err != nil {
			return nil, err
		}
		c.MongoURI, c.RedisURL, c.InternalSecret, c.WorkspaceURL = w.mongoURI, w.redisURL, w.secret, w.urls["workspace"]
		c.IdentityURL = w.urls["identity"]
		svc, err := svcnotify.New(ctx, c, svcnotify.Deps{DB: w.db(name), Redis: w.rdb, Logger: log})
		if err != nil {
			return nil, err
		}
		return svc, nil
	case "content":
		var c svccontent.Config
		if err := config.Read(ctx, &c, w.o.Env); err != nil {
			return nil, err
		}
		c.MongoURI, c.RedisURL, c.InternalSecret, c.WorkspaceURL = w.mongoURI, w.redisURL, w.secret, w.urls["workspace"]
		c.IdentityURL, c.NotifyURL, c.ActivityURL, c.MemoryURL = w.urls["identity"], w.urls["notify"], w.urls["activity"], w.urls["memory"]
		c.Realtime.Solo = soloContent(w.o)
		svc, err := svccontent.New(ctx, c, svccontent.Deps{DB: w.db(name), Redis: w.rdb, Logger: log})
		if err != nil {
			return nil, err
		}
		return svc, nil
	case "memory":
		var c svcmemory.Config
		if err := config.Read(ctx, &c, w.o.Env); err != nil {
			return nil, err
		}
		c.MongoURI, c.RedisURL, c.InternalSecret = w.mongoURI, w.redisURL, w.secret
		if c.IndexSnapshotDir == "" {
			c.IndexSnapshotDir = filepath.Join(w.o.DataDir, "memory-index")
		}
		svc, err := svcmemory.New(ctx, c, svcmemory.Deps{DB: w.db(name), Redis: w.rdb, Logger: log})
		if err != nil {
			return nil, err
		}
		return svc, nil
	}
	return nil, fmt.Errorf("unknown service %q", name)
}

func newGateway(ctx context.Context, w wiring, content http.Handler) (*gateway.Gateway, string, error) {
	var c gateway.Config
	if err := config.Read(ctx, &c, w.o.Env); err != nil {
		return nil, "", err
	}
	if w.o.Env == nil {
		c.MetricsAddr = ""
	}
	c.InternalSecret, c.RedisURL = w.secret, w.redisURL
	c.OperatorToken = w.o.Credentials.OperatorToken
	c.WorkspaceURL, c.IdentityURL, c.ContentURL = w.urls["workspace"], w.urls["identity"], w.urls["content"]
	c.NotifyURL, c.ActivityURL, c.MemoryURL = w.urls["notify"], w.urls["activity"], w.urls["memory"]
	switch {
	case w.o.RateLimitPerSecond > 0:
		c.RateLimitPerSecond = int64(w.o.RateLimitPerSecond)
	case w.o.RateLimitPerSecond < 0:
		c.RateLimitPerSecond = 0
	}
	gw, err := gateway.New(c, gateway.Deps{Redis: w.rdb, Logger: w.o.Logger.With(logging.ServiceKey, gateway.Name), ContentRealtime: content})
	return gw, c.MetricsAddr, err
}

func closeAll(closers []func()) {
	var wg sync.WaitGroup
	for _, c := range closers {
		wg.Add(1)
		go func() { defer wg.Done(); c() }()
	}
	wg.Wait()
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// TelemetryServices are the services of the stack, each with its version,
// for telemetry.Setup; host is the first, for what belongs to none.
func TelemetryServices(host string) []telemetry.Service {
	return []telemetry.Service{
		{Name: host},
		{Name: gateway.Name, Version: gateway.Version},
		{Name: svcworkspace.Name, Version: svcworkspace.Version},
		{Name: svcidentity.Name, Version: svcidentity.Version},
		{Name: svcactivity.Name, Version: svcactivity.Version},
		{Name: svcnotify.Name, Version: svcnotify.Version},
		{Name: svccontent.Name, Version: svccontent.Version},
		{Name: svcmemory.Name, Version: svcmemory.Version},
	}
}
