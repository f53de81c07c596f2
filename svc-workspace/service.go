// Package svcworkspace is the workspace service: workspaces, API keys and
// hashed auth tokens, the operator operations that issue them and the
// credential lookup the gateway authenticates with; the workspace's email
// and advanced webhook configuration, its webhook endpoints and the
// delivery of events to them. New builds it from configuration and
// dependencies so cmd/svc-workspace and deploy/local host the same thing.
package svcworkspace

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"

	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/pagetoken"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-workspace/internal/delivery"
	"github.com/opencollab/backend/svc-workspace/internal/httpapi"
	"github.com/opencollab/backend/svc-workspace/internal/secretbox"
	"github.com/opencollab/backend/svc-workspace/internal/store"
	"github.com/opencollab/backend/svc-workspace/internal/webhook"
	"github.com/opencollab/backend/svc-workspace/internal/workspace"
)

// Name is the service name in logs and traces.
const Name = "svc-workspace"

// minSecretLen is the shortest internal secret accepted.
const minSecretLen = 16

// Config is the service configuration, read from the environment.
type Config struct {
	ListenAddr         string `env:"LISTEN_ADDR, default=:8080"`
	MongoURI           string `env:"MONGO_URI" mask:"true"`
	MongoDB            string `env:"MONGO_DB, default=collab_workspace"`
	RedisURL           string `env:"REDIS_URL" mask:"true"`
	InternalSecret     string `env:"INTERNAL_SECRET" mask:"true"`
	BootstrapAPIKey    string `env:"BOOTSTRAP_API_KEY"`
	BootstrapAuthToken string `env:"BOOTSTRAP_AUTH_TOKEN" mask:"true"`
	LogLevel           string `env:"LOG_LEVEL, default=info"`
	// DataEncryptionKey (base64 of 32 bytes) seals webhook secrets and the
	// email provider's API key at rest. Without it those settings can be
	// read (defaults) but not written.
	DataEncryptionKey string `env:"DATA_ENCRYPTION_KEY" mask:"true"`
	// WebhookAllowPrivateTargets lets deliveries reach loopback and private
	// addresses (tests, on-premises receivers); off in production.
	WebhookAllowPrivateTargets bool `env:"WEBHOOK_ALLOW_PRIVATE_TARGETS, default=false"`
	// WebhookTargetCacheTTL is how long a replica reuses what it read of a
	// workspace's webhook configuration, operator switch and endpoints when
	// delivering (zero: 2 s; negative: read them for every event and
	// attempt). A change made through another replica reaches this one's
	// deliveries within it: a disabled or deleted endpoint may still get
	// attempts, a new one may miss events, for up to this long. The
	// replica that makes a change applies it at once.
	WebhookTargetCacheTTL time.Duration `env:"WEBHOOK_TARGET_CACHE_TTL, default=2s"`
	// EventStreams are the streams whose events are delivered to webhooks
	// (DefaultEventStreams when empty).
	EventStreams []string `env:"EVENT_STREAMS, default=events:activity,events:notify,events:content"`
}

// DefaultEventStreams are the event streams of the publishing services.
var DefaultEventStreams = []string{"events:activity", "events:notify", "events:content"}

// Validate checks what New needs. Store addresses are checked by
// ValidateStores, since a host passing ready clients in Deps has none.
func (c *Config) Validate() error {
	if len(c.InternalSecret) < minSecretLen {
		return fmt.Errorf("INTERNAL_SECRET must be at least %d characters", minSecretLen)
	}
	if (c.BootstrapAPIKey == "") != (c.BootstrapAuthToken == "") {
		return errors.New("BOOTSTRAP_API_KEY and BOOTSTRAP_AUTH_TOKEN must be set together")
	}
	if _, err := secretbox.FromBase64(c.DataEncryptionKey); err != nil {
		return fmt.Errorf("DATA_ENCRYPTION_KEY must be the base64 of %d random bytes", secretbox.KeySize)
	}
	return nil
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

// Deps are the connected stores the service runs on.
type Deps struct {
	DB     *mongo.Database
	Redis  *redis.Client
	Logger *slog.Logger
}

// Service is a ready-to-serve workspace service with its webhook delivery
// running in the background until Close.
type Service struct {
	// routes are the registered routes (Routes).
	routes  []string
	handler http.Handler
	stop    context.CancelFunc
	running sync.WaitGroup
	closed  sync.Once
}

// CredentialLookupPath, CredentialLookupRequest and CredentialLookupResponse
// are the gateway's lookup contract (the gateway mirrors these JSON names).
const CredentialLookupPath = httpapi.LookupPath

type (
	CredentialLookupRequest  = httpapi.LookupRequest
	CredentialLookupResponse = httpapi.LookupResponse
)

// New creates the indexes, bootstraps the configured workspace, builds the
// HTTP handler and starts the webhook delivery; Close stops it.
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
	mongoStore := store.NewMongo(deps.DB)
	if err := mongoStore.EnsureIndexes(ctx); err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	hooks, deliveries, err := newWebhooks(ctx, cfg, deps, mongoStore, logger)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	cache := store.NewCredentialCache(deps.Redis)
	svc := workspace.NewService(switchWatch{Mongo: mongoStore, changed: hooks.ForgetTargets}, cache)
	if cfg.BootstrapAPIKey != "" {
		if err := svc.Bootstrap(ctx, cfg.BootstrapAPIKey, cfg.BootstrapAuthToken); err != nil {
			return nil, fmt.Errorf("%s: %w", Name, err)
		}
		logger.InfoContext(ctx, "bootstrap workspace ready")
	}
	engine := web.NewEngine(func(ctx context.Context) error {
		return errors.Join(mongoStore.Ping(ctx), cache.Ping(ctx))
	})
	httpapi.Routes(engine, internalauth.NewSigner(cfg.InternalSecret), svc, hooks, deliveries)
	s := &Service{handler: otelhttp.NewHandler(engine, Name)}
	s.routes = web.Routes(engine)

	// Delivery outlives New's context (a start-up deadline must not stop
	// it); Close ends it.
	streams := cfg.EventStreams
	if len(streams) == 0 {
		streams = DefaultEventStreams
	}
	bg, stop := context.WithCancel(context.WithoutCancel(ctx))
	s.stop = stop
	s.running.Go(func() {
		if err := deliveries.Run(bg, deps.Redis, streams); err != nil {
			logger.ErrorContext(bg, "webhook delivery stopped", "error", err)
		}
	})
	return s, nil
}

// newWebhooks builds the webhook configuration service and the delivery
// that consumes events for it.
func newWebhooks(ctx context.Context, cfg Config, deps Deps, st *store.Mongo, logger *slog.Logger) (*webhook.Service, *delivery.Service, error) {
	box, _ := secretbox.FromBase64(cfg.DataEncryptionKey) // checked by Validate
	if box == nil {
		logger.WarnContext(ctx, "DATA_ENCRYPTION_KEY is not configured: email and webhook settings cannot be changed")
	}
	hooks := webhook.NewService(st, st, pagetoken.New(deps.Redis, 0).WithSecret(cfg.InternalSecret), webhook.Options{
		Box: box, TargetCacheTTL: cfg.WebhookTargetCacheTTL, AllowPrivateTargets: cfg.WebhookAllowPrivateTargets,
	})
	deliveries := delivery.NewService(deps.DB, hooks, delivery.Options{
		AllowPrivateTargets: cfg.WebhookAllowPrivateTargets, Logger: logger,
	})
	if err := deliveries.EnsureIndexes(ctx); err != nil {
		return nil, nil, err
	}
	return hooks, deliveries, nil
}

// switchWatch is the workspace store that tells the webhook delivery of
// this replica when an operator changes a workspace's feature switches, so
// turning advancedWebhooks off stops deliveries here at once instead of
// after the delivery's cache TTL (other replicas follow within it).
type switchWatch struct {
	*store.Mongo
	changed func(workspaceID string)
}

func (w switchWatch) SetFeatureSwitches(ctx context.Context, workspaceID string, switches map[features.Name]bool) (workspace.Workspace, error) {
	defer w.changed(workspaceID) // after the write, whatever its outcome
	return w.Mongo.SetFeatureSwitches(ctx, workspaceID, switches)
}

// Handler serves every route, traced.
func (s *Service) Handler() http.Handler { return s.handler }

// Routes lists the service's HTTP routes as "METHOD /path" (web.Routes).
func (s *Service) Routes() []string { return s.routes }

// Close stops the webhook delivery and waits for in-flight deliveries.
// Unacknowledged events and undelivered messages stay stored for the next
// start. Calling it again does nothing.
func (s *Service) Close() {
	s.closed.Do(func() {
		s.stop()
		s.running.Wait()
	})
}
