// Package svccontent is the content service: what is inside documents —
// CRDT editor data, comment annotations and their locations — and the
// document-migration orchestrator. New builds it from configuration and
// dependencies so cmd/svc-content and deploy/local host the same thing.
package svccontent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/pagetoken"
	"github.com/opencollab/backend/pkg/svcclient"
	"github.com/opencollab/backend/svc-content/internal/annotations"
	"github.com/opencollab/backend/svc-content/internal/crdt"
	"github.com/opencollab/backend/svc-content/internal/httpapi"
	"github.com/opencollab/backend/svc-content/internal/locations"
	"github.com/opencollab/backend/svc-content/internal/migration"
)

// Name is the service name in logs and traces.
const Name = "svc-content"

// EventSource is the source of the events content publishes (stream
// "events:content").
const EventSource = "content"

// minSecretLen is the shortest internal secret accepted.
const minSecretLen = 16

// minMigrationLease keeps the lease well above a database round trip.
const minMigrationLease = time.Second

// Config is the service configuration, read from the environment. Empty
// service URLs mean "not deployed": features then count as enabled (no
// WORKSPACE_URL; the in-body credentials of locations/update can then not
// be checked and the operation is UNAVAILABLE), and a migration skips the
// owners without an address.
type Config struct {
	ListenAddr     string `env:"LISTEN_ADDR, default=:8080"`
	MongoURI       string `env:"MONGO_URI" mask:"true"`
	MongoDB        string `env:"MONGO_DB, default=collab_content"`
	RedisURL       string `env:"REDIS_URL" mask:"true"`
	InternalSecret string `env:"INTERNAL_SECRET" mask:"true"`
	WorkspaceURL   string `env:"WORKSPACE_URL"`
	IdentityURL    string `env:"IDENTITY_URL"`
	NotifyURL      string `env:"NOTIFY_URL"`
	ActivityURL    string `env:"ACTIVITY_URL"`
	MemoryURL      string `env:"MEMORY_URL"`
	// MigrationLease is how long a replica holds a migration without
	// renewing; a crashed replica's migration resumes elsewhere after it.
	// 0 (a host that builds Config by hand) means 30s.
	MigrationLease time.Duration `env:"MIGRATION_LEASE, default=30s"`
	LogLevel       string        `env:"LOG_LEVEL, default=info"`
	Realtime       RealtimeConfig
	CRDT           CRDTConfig
}

// Validate checks what New needs. Store addresses are checked by
// ValidateStores, since a host passing ready clients in Deps has none.
func (c *Config) Validate() error {
	var errs []error
	if len(c.InternalSecret) < minSecretLen {
		errs = append(errs, fmt.Errorf("INTERNAL_SECRET must be at least %d characters", minSecretLen))
	}
	for name, u := range c.serviceURLs() {
		if err := checkServiceURL(u); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
		}
	}
	if c.MigrationLease != 0 && c.MigrationLease < minMigrationLease {
		errs = append(errs, fmt.Errorf("MIGRATION_LEASE must be at least %s", minMigrationLease))
	}
	if err := c.Realtime.settings().Validate(); err != nil {
		errs = append(errs, err)
	}
	if err := c.CRDT.Validate(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// ValidateStores checks the store addresses a standalone process connects to.
func (c *Config) ValidateStores() error {
	if c.MongoURI == "" {
		return errors.New("MONGO_URI is required")
	}
	if c.RedisURL == "" {
		return errors.New("REDIS_URL is required")
	}
	return nil
}

func (c *Config) serviceURLs() map[string]string {
	return map[string]string{
		"WORKSPACE_URL": c.WorkspaceURL, "IDENTITY_URL": c.IdentityURL, "NOTIFY_URL": c.NotifyURL,
		"ACTIVITY_URL": c.ActivityURL, "MEMORY_URL": c.MemoryURL,
	}
}

// checkServiceURL accepts "" (not deployed) or http(s)://host[:port][/].
func checkServiceURL(raw string) error {
	if raw == "" {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q: want http(s)://host[:port]", raw)
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		return fmt.Errorf("%q: must not have a path or query", raw)
	}
	return nil
}

// Deps are the connected stores the service runs on.
type Deps struct {
	DB     *mongo.Database
	Redis  *redis.Client
	Logger *slog.Logger
}

// Service is a ready-to-serve content service with its background work
// (outbox relay, migration worker) running until Close.
type Service struct {
	// routes are the registered routes (Routes).
	routes   []string
	handler  http.Handler
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	once     sync.Once
	realtime *realtimeDoor
}

// New creates the indexes, wires the packages, starts the outbox relay and
// the migration worker, and builds the HTTP handler.
func New(ctx context.Context, cfg Config, deps Deps) (*Service, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	if deps.DB == nil || deps.Redis == nil {
		return nil, fmt.Errorf("%s: Deps.DB and Deps.Redis are required", Name)
	}
	logger := deps.Logger
	if logger == nil {
		logger = slog.Default()
	}
	signer := internalauth.NewSigner(cfg.InternalSecret)
	workspace := serviceClient("svc-workspace", cfg.WorkspaceURL, signer)

	pub := events.NewPublisher(deps.Redis, deps.DB, EventSource, logger)
	crdtSvc := crdt.NewService(deps.DB, pub, cfg.CRDT.settings())
	annotationsSvc := annotations.NewService(deps.DB, pub).
		WithPageTokens(pagetoken.New(deps.Redis, 0).WithSecret(cfg.InternalSecret)).WithLogger(logger)
	own := ownData{crdt: crdtSvc, annotations: annotationsSvc}
	locationsSvc := locations.NewService(locations.NewWorkspaceCredentials(workspace), locationRewriter(annotationsSvc))
	migrations := migration.NewService(deps.DB, migrationSteps(cfg, own, signer), pub, logger)

	for _, ensure := range []func(context.Context) error{
		pub.EnsureIndexes, crdtSvc.EnsureIndexes, annotationsSvc.EnsureIndexes, migrations.EnsureIndexes,
	} {
		if err := ensure(ctx); err != nil {
			return nil, fmt.Errorf("%s: %w", Name, err)
		}
	}

	engine := api.NewEngine(func(ctx context.Context) error {
		return errors.Join(deps.DB.Client().Ping(ctx, nil), deps.Redis.Ping(ctx).Err())
	})
	// One settings cache for feature checks and the realtime endpoints'
	// allowed domains.
	settings := features.NewChecker(workspace, 0)
	rt := startRealtime(cfg, deps.Redis, crdtSvc, serviceClient("svc-identity", cfg.IdentityURL, signer),
		serviceClient("svc-activity", cfg.ActivityURL, signer), settings, logger)
	httpapi.Routes(engine, signer, httpapi.Services{
		CRDT: crdtSvc, Annotations: annotationsSvc, Features: settings,
		Locations: locationsSvc, Migrations: migrations, Documents: own, Realtime: rt.hub, LiveState: rt.hub,
	})

	// Background work outlives New's context and stops with Close.
	bg, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s := &Service{handler: otelhttp.NewHandler(engine, Name), cancel: cancel, realtime: rt}
	s.routes = api.Routes(engine)
	worker := migrations.NewWorker(migration.WorkerOptions{Lease: cfg.MigrationLease})
	s.wg.Go(func() { pub.RunRelay(bg) })
	s.wg.Go(func() { worker.Run(bg) })
	return s, nil
}

// Handler serves every route, traced.
func (s *Service) Handler() http.Handler { return s.handler }

// Routes lists the service's HTTP routes as "METHOD /path" (api.Routes).
func (s *Service) Routes() []string { return s.routes }

// Close stops the background work and waits for it. A migration in flight
// is left to its lease: another replica (or the next start) resumes it.
func (s *Service) Close() {
	s.once.Do(func() {
		s.realtime.close()
		s.cancel()
		s.wg.Wait()
	})
}

// serviceClient returns a client of the service at baseURL, nil when it
// has no address (not deployed).
func serviceClient(name, baseURL string, signer *internalauth.Signer) *svcclient.Client {
	if baseURL == "" {
		return nil
	}
	return svcclient.New(name, strings.TrimSuffix(baseURL, "/"), signer)
}

// migrationSteps is the order a migration moves data in: content's own
// data first, the document record (identity) last, so the document is
// never seen under its new id while its data is still moving. Owners
// without an address are skipped.
func migrationSteps(cfg Config, own ownData, signer *internalauth.Signer) []migration.Step {
	steps := []migration.Step{{Name: "content", Owner: migration.NewLocal(own)}}
	for _, o := range []struct{ name, url string }{
		{"notify", cfg.NotifyURL},
		{"activity", cfg.ActivityURL},
		{"memory", cfg.MemoryURL},
		{"identity", cfg.IdentityURL},
	} {
		if o.url != "" {
			steps = append(steps, migration.Step{Name: o.name, Owner: migration.NewRemote(serviceClient("svc-"+o.name, o.url, signer))})
		}
	}
	return steps
}

// locationRewriter is the annotations service when it can rewrite the
// locations stored on annotations, else a rewriter that finds none
// (locations/update then answers NOT_FOUND).
func locationRewriter(annotationsSvc *annotations.Service) locations.Rewriter {
	if rw, ok := any(annotationsSvc).(locations.Rewriter); ok {
		return rw
	}
	return locations.NoLocations{}
}

// ownData is content's own data keyed by document id: CRDT editor data
// and comment annotations (with the locations stored on them).
type ownData struct {
	crdt        *crdt.Service
	annotations *annotations.Service
}

// MigrateDocument moves both; each is an idempotent keyed update, so a
// re-run after a partial one finishes the move.
func (d ownData) MigrateDocument(ctx context.Context, ws, org, doc, newDoc string) (int64, error) {
	moved, err := d.crdt.MigrateDocument(ctx, ws, org, doc, newDoc)
	if err != nil {
		return 0, err
	}
	more, err := d.annotations.MigrateDocument(ctx, ws, org, doc, newDoc)
	if err != nil {
		return 0, err
	}
	return moved + more, nil
}

// HasData reports whether either holds data of the document.
func (d ownData) HasData(ctx context.Context, ws, org, doc string) (bool, error) {
	if has, err := d.crdt.HasData(ctx, ws, org, doc); err != nil || has {
		return has, err
	}
	return d.annotations.HasData(ctx, ws, org, doc)
}
