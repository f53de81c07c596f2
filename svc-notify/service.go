// Package svcnotify is the notification service: notifications (add, get
// per user with "For You" / "all" tabs and read state, update, delete), the
// per-user notification configuration, the events every change publishes,
// the user-data export page and the document-migration hooks svc-content
// calls. New builds it from configuration and dependencies so
// cmd/svc-notify and deploy/local host the same thing.
package svcnotify

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"sync"

	"github.com/redis/go-redis/v9"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"

	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/pagetoken"
	"github.com/opencollab/backend/pkg/svcclient"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-notify/internal/httpapi"
	"github.com/opencollab/backend/svc-notify/internal/notify"
	"github.com/opencollab/backend/svc-notify/internal/store"
)

// Name is the service name in logs and traces.
const Name = "svc-notify"

// minSecretLen is the shortest internal secret accepted.
const minSecretLen = 16

// Config is the service configuration, read from the environment.
type Config struct {
	ListenAddr     string `env:"LISTEN_ADDR, default=:8080"`
	MongoURI       string `env:"MONGO_URI" mask:"true"`
	MongoDB        string `env:"MONGO_DB, default=collab_notify"`
	RedisURL       string `env:"REDIS_URL" mask:"true"`
	InternalSecret string `env:"INTERNAL_SECRET" mask:"true"`
	// WorkspaceURL is svc-workspace, asked for the workspace's feature
	// switches. Empty: every feature counts as enabled.
	WorkspaceURL string `env:"WORKSPACE_URL"`
	LogLevel     string `env:"LOG_LEVEL, default=info"`
}

// Validate checks what New needs. Store addresses are checked by
// ValidateStores, since a host passing ready clients in Deps has none.
func (c *Config) Validate() error {
	if len(c.InternalSecret) < minSecretLen {
		return fmt.Errorf("INTERNAL_SECRET must be at least %d characters", minSecretLen)
	}
	if c.WorkspaceURL != "" {
		if u, err := url.Parse(c.WorkspaceURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("WORKSPACE_URL must be an http(s) URL, got %q", c.WorkspaceURL)
		}
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

// Service is a ready-to-serve notification service. Close stops its outbox
// relay.
type Service struct {
	// routes are the registered routes (Routes).
	routes     []string
	handler    http.Handler
	stopRelay  context.CancelFunc
	relayEnded sync.WaitGroup
}

// The user-data route and its shapes, for svc-identity's client
// (users/data/get), which mirrors these JSON names. The document migration
// routes are pkg/docmigrate's.
const UserDataPath = httpapi.UserDataPath

type (
	UserDataRequest  = httpapi.UserDataRequest
	UserDataResponse = httpapi.UserDataResponse
)

// EventStream is the Redis stream the service publishes on.
var EventStream = events.Stream(notify.EventSource)

// New creates the indexes (the service's and the event outbox's), starts
// the outbox relay and builds the HTTP handler.
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
	publisher := events.NewPublisher(deps.Redis, deps.DB, notify.EventSource, logger)
	if err := publisher.EnsureIndexes(ctx); err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	signer := internalauth.NewSigner(cfg.InternalSecret)
	var workspace *svcclient.Client // nil: every feature enabled
	if cfg.WorkspaceURL != "" {
		workspace = svcclient.New("svc-workspace", cfg.WorkspaceURL, signer)
	}
	svc := notify.NewService(mongoStore, pagetoken.New(deps.Redis, 0).WithSecret(cfg.InternalSecret), publisher, logger)
	engine := web.NewEngine(func(ctx context.Context) error {
		return errors.Join(mongoStore.Ping(ctx), deps.Redis.Ping(ctx).Err())
	})
	httpapi.Routes(engine, signer, svc, features.NewChecker(workspace, 0))

	// The relay outlives New's context (a start-up deadline must not stop
	// it); Close ends it.
	relayCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	s := &Service{handler: otelhttp.NewHandler(engine, Name), stopRelay: stop}
	s.routes = web.Routes(engine)
	s.relayEnded.Go(func() { publisher.RunRelay(relayCtx) })
	return s, nil
}

// Handler serves every route, traced.
func (s *Service) Handler() http.Handler { return s.handler }

// Routes lists the service's HTTP routes as "METHOD /path" (web.Routes).
func (s *Service) Routes() []string { return s.routes }

// Close stops the outbox relay and waits for it. Events still in the
// outbox stay there for the next start.
func (s *Service) Close() {
	s.stopRelay()
	s.relayEnded.Wait()
}
