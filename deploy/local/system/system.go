// Package system starts the whole backend in one process: embedded stores
// (unless real ones are named), every service on a loopback port, and the
// gateway in front. The README's run command and the end-to-end tests both
// start the system through here, so tests exercise what users run.
package system

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"

	"github.com/sethvargo/go-envconfig"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"golang.org/x/sync/errgroup"

	"github.com/opencollab/backend/pkg/embedded"
	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/pkg/redisdb"
	"github.com/opencollab/backend/pkg/server"
)

// Options configure a local system. Zero values give the laptop defaults.
type Options struct {
	DataDir     string // embedded MongoDB files and local-credentials.json
	GatewayAddr string // default 127.0.0.1:8080
	MongoURI    string // empty: embedded FerretDB under DataDir
	// EmbeddedSync is the embedded FerretDB's commit durability (setting
	// EMBEDDED_SYNC); empty: embedded.SyncNormal.
	EmbeddedSync embedded.Sync
	RedisURL     string // empty: in-process Redis
	DBPrefix     string // prefix of every service database name, default "collab_"
	Credentials  Credentials
	// Env is where every service's settings come from, with the meaning
	// they have for the service's own binary (docs/settings.md); the stack
	// wires the store addresses, secrets and service addresses itself. Nil:
	// each setting's default.
	Env envconfig.Lookuper
	// RateLimitPerSecond overrides RATE_LIMIT_PER_SECOND for tests and
	// benchmarks: 0 keeps the setting, <0 disables the limit.
	RateLimitPerSecond int
	// Services names the services to host (workspace, identity, activity,
	// notify, content, memory); empty hosts all. The gateway answers
	// UNAVAILABLE for the prefixes of those left out. Workspace is required.
	Services []string
	// WebhookAllowPrivateTargets lets webhooks reach loopback and private
	// addresses (tests with local receivers), as does the setting
	// WEBHOOK_ALLOW_PRIVATE_TARGETS=true; off by default.
	WebhookAllowPrivateTargets bool
	// ContentReplicas runs svc-content as this many replicas behind a
	// round-robin balancer (0 or 1: one), as a cluster would.
	ContentReplicas int
	Logger          *slog.Logger
}

// System is a running backend.
type System struct {
	GatewayURL  string
	MetricsURL  string // the gateway's /metrics listener, if any
	ServiceURLs map[string]string
	// ServiceRoutes are each hosted service's routes, "METHOD /path"
	// (the OpenAPI drift test reads them).
	ServiceRoutes map[string][]string
	Credentials   Credentials
	// InternalSecret signs gateway → service calls; exposed so benchmarks
	// can call a service directly, as the gateway does.
	InternalSecret string

	group *errgroup.Group
	stops []func()
}

// Start brings everything up and returns once the gateway is listening.
// The system stops when ctx ends; Wait returns after it has.
func Start(ctx context.Context, o Options) (*System, error) {
	o = withDefaults(o)
	s := &System{ServiceURLs: map[string]string{}, ServiceRoutes: map[string][]string{}}
	ok := false
	defer func() {
		if !ok {
			s.stop()
		}
	}()
	if err := os.MkdirAll(o.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("data dir: %w", err)
	}
	creds, err := loadOrCreateCredentials(o.DataDir, o.Credentials)
	if err != nil {
		return nil, err
	}
	s.Credentials, o.Credentials = creds, creds
	mongoClient, mongoURI, redisURL, err := s.startStores(ctx, o)
	if err != nil {
		return nil, err
	}
	s.group, ctx = errgroup.WithContext(ctx)
	if err := s.startServices(ctx, o, mongoClient, mongoURI, redisURL); err != nil {
		return nil, err
	}
	ok = true
	return s, nil
}

// Wait blocks until every server has shut down, then closes the stores.
func (s *System) Wait() error {
	err := s.group.Wait()
	s.stop()
	return err
}

func (s *System) stop() {
	for i := len(s.stops) - 1; i >= 0; i-- {
		s.stops[i]()
	}
	s.stops = nil
}

func withDefaults(o Options) Options {
	if o.DataDir == "" {
		o.DataDir = "data"
	}
	if o.GatewayAddr == "" {
		o.GatewayAddr = "127.0.0.1:8080"
	}
	if o.DBPrefix == "" {
		o.DBPrefix = "collab_"
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

func (s *System) startStores(ctx context.Context, o Options) (*mongo.Client, string, string, error) {
	mongoURI := o.MongoURI
	if mongoURI == "" {
		uri, stop, err := embedded.StartFerretDBWith(ctx, filepath.Join(o.DataDir, "mongo"),
			embedded.FerretOptions{Sync: o.EmbeddedSync})
		if err != nil {
			return nil, "", "", fmt.Errorf("embedded MongoDB: %w", err)
		}
		s.stops = append(s.stops, stop)
		mongoURI = uri
	}
	redisURL := o.RedisURL
	if redisURL == "" {
		url, stop, err := embedded.StartRedis()
		if err != nil {
			return nil, "", "", fmt.Errorf("embedded Redis: %w", err)
		}
		s.stops = append(s.stops, stop)
		redisURL = url
	}
	client, err := mongodb.Connect(ctx, mongoURI)
	if err != nil {
		return nil, "", "", err
	}
	s.stops = append(s.stops, func() { _ = client.Disconnect(context.Background()) })
	return client, mongoURI, redisURL, nil
}

// serve listens on addr and serves h in the group until ctx ends.
func (s *System) serve(ctx context.Context, addr string, h http.Handler) (string, error) {
	srv, err := server.Listen(addr)
	if err != nil {
		return "", err
	}
	s.serveOn(ctx, srv, h)
	return srv.URL(), nil
}

// serveOn serves h on an open listener in the group until ctx ends.
func (s *System) serveOn(ctx context.Context, srv *server.Server, h http.Handler) {
	s.group.Go(func() error {
		if err := srv.Serve(ctx, h); err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
		return nil
	})
}

func connectRedis(ctx context.Context, s *System, url string) (*redisClient, error) {
	rdb, err := redisdb.Connect(ctx, url)
	if err != nil {
		return nil, err
	}
	s.stops = append(s.stops, func() { _ = rdb.Close() })
	return rdb, nil
}
