// Package svcidentity is the identity service: users, organizations,
// folders and documents as access-controlled resources, memberships and
// roles, user groups, permission signatures and user tokens. New builds it
// from configuration and dependencies so cmd/svc-identity and deploy/local
// host the same thing.
package svcidentity

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
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
	"github.com/opencollab/backend/svc-identity/internal/erasure"
	"github.com/opencollab/backend/svc-identity/internal/httpapi"
	"github.com/opencollab/backend/svc-identity/internal/identity"
	"github.com/opencollab/backend/svc-identity/internal/signing"
	"github.com/opencollab/backend/svc-identity/internal/store"
	"github.com/opencollab/backend/svc-identity/internal/userdata"
)

// Name is the service name in logs and traces.
const Name = "svc-identity"

// minSecretLen is the shortest internal secret accepted.
const minSecretLen = 16

// Config is the service configuration, read from the environment.
type Config struct {
	ListenAddr     string `env:"LISTEN_ADDR, default=:8080"`
	MongoURI       string `env:"MONGO_URI" mask:"true"`
	MongoDB        string `env:"MONGO_DB, default=collab_identity"`
	RedisURL       string `env:"REDIS_URL" mask:"true"`
	InternalSecret string `env:"INTERNAL_SECRET" mask:"true"`
	LogLevel       string `env:"LOG_LEVEL, default=info"`
	// WorkspaceURL is svc-workspace, asked for feature switches; empty
	// enables every feature (tests, embedded setups).
	WorkspaceURL string `env:"WORKSPACE_URL"`
	// ContentURL and NotifyURL are read by users/data/get; while one is
	// empty that operation answers UNAVAILABLE.
	ContentURL string `env:"CONTENT_URL"`
	NotifyURL  string `env:"NOTIFY_URL"`
	// ActivityURL is svc-activity, one of the services users/data/delete
	// erases in (with content, notify, workspace and memory). A service
	// without an address is left out of the job.
	ActivityURL string `env:"ACTIVITY_URL"`
	// MemoryURL is svc-memory, which users/data/delete erases the
	// judgments (and their vectors) of; empty: not deployed.
	MemoryURL string `env:"MEMORY_URL"`
	// ErasureInterval is how often pending erasure tasks are retried.
	ErasureInterval time.Duration `env:"ERASURE_RETRY_INTERVAL, default=10s"`
}

// Validate checks what New needs. Store addresses are checked by
// ValidateStores, since a host passing ready clients in Deps has none.
func (c *Config) Validate() error {
	if len(c.InternalSecret) < minSecretLen {
		return fmt.Errorf("INTERNAL_SECRET must be at least %d characters", minSecretLen)
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

// Service is a ready-to-serve identity service.
type Service struct {
	// routes are the registered routes (Routes).
	routes  []string
	handler http.Handler
	stop    context.CancelFunc // the outbox relay of the access events
	done    chan struct{}
}

// EventSource is the source of identity's events (stream
// "events:identity"): today only AccessRemovedEvent.
const EventSource = "identity"

// AccessRemovedEvent says a user's grants were removed
// (permissions/remove, users/delete); svc-content ends the user's realtime
// sessions that no longer have access.
const AccessRemovedEvent = "identity.access_removed"

// accessEvents publishes AccessRemovedEvent.
type accessEvents struct{ pub *events.Publisher }

func (a accessEvents) AccessRemoved(ctx context.Context, ws, userID, orgID string) error {
	ev, err := events.New(AccessRemovedEvent, EventSource, ws, orgID, "", map[string]string{"userId": userID})
	if err != nil {
		return err
	}
	return a.pub.Publish(ctx, ev)
}

// New creates the indexes and builds the HTTP handler.
func New(ctx context.Context, cfg Config, deps Deps) (*Service, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	if deps.DB == nil || deps.Redis == nil {
		return nil, fmt.Errorf("%s: Deps.DB and Deps.Redis are required", Name)
	}
	mongoStore := store.New(deps.DB)
	if err := mongoStore.EnsureIndexes(ctx); err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	if n, err := mongoStore.ConvertExpiresToMillis(ctx); err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	} else if n > 0 {
		deps.Logger.InfoContext(ctx, "converted stored grant expiries from seconds to milliseconds", "grants", n)
	}
	secrets := signing.NewSecretStore(deps.DB)
	if err := secrets.EnsureIndexes(ctx); err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	revocations := store.NewRevocations(deps.DB)
	pub := events.NewPublisher(deps.Redis, deps.DB, EventSource, deps.Logger)
	for _, ensure := range []func(context.Context) error{revocations.EnsureIndexes, pub.EnsureIndexes} {
		if err := ensure(ctx); err != nil {
			return nil, fmt.Errorf("%s: %w", Name, err)
		}
	}
	pages := pagetoken.New(deps.Redis, 0).WithSecret(cfg.InternalSecret)
	ids := identity.NewService(mongoStore, pages, time.Now).WithRevocations(revocations, accessEvents{pub})
	signer := internalauth.NewSigner(cfg.InternalSecret)
	backends := httpapi.Backends{
		Features: features.NewChecker(optionalClient("svc-workspace", cfg.WorkspaceURL, signer), 0),
		UserData: userdata.NewService(
			svcclient.New("svc-content", cfg.ContentURL, signer),
			svcclient.New("svc-notify", cfg.NotifyURL, signer),
			pages, ids),
	}
	erasures := erasure.NewService(store.NewErasureJobs(deps.DB), erasers(cfg, signer, mongoStore), deps.Logger)
	backends.Erasure = erasures
	engine := api.NewEngine(func(ctx context.Context) error {
		return errors.Join(deps.DB.Client().Ping(ctx, nil), deps.Redis.Ping(ctx).Err())
	})
	httpapi.Routes(engine, signer, ids, secrets, time.Now, backends)
	bg, stop := context.WithCancel(context.WithoutCancel(ctx))
	svc := &Service{handler: otelhttp.NewHandler(engine, Name), stop: stop, done: make(chan struct{})}
	svc.routes = api.Routes(engine)
	interval := cfg.ErasureInterval
	if interval <= 0 {
		interval = 10 * time.Second
	}
	go func() { defer close(svc.done); pub.RunRelay(bg) }()
	// The worker picks up what a crash left pending as soon as it starts.
	go erasures.Run(bg, interval)
	return svc, nil
}

// Close stops the outbox relay.
func (s *Service) Close() {
	s.stop()
	<-s.done
}

// optionalClient is a client for the service at baseURL, or nil when no
// address is configured.
func optionalClient(name, baseURL string, signer *internalauth.Signer) *svcclient.Client {
	if baseURL == "" {
		return nil
	}
	return svcclient.New(name, baseURL, signer)
}

// erasers are the services users/data/delete erases in: identity itself
// and every other service with an address.
func erasers(cfg Config, signer *internalauth.Signer, own erasure.LocalStore) map[string]erasure.Eraser {
	out := map[string]erasure.Eraser{"identity": erasure.Local{Store: own}}
	for name, url := range map[string]string{
		"content": cfg.ContentURL, "notify": cfg.NotifyURL, "activity": cfg.ActivityURL,
		"workspace": cfg.WorkspaceURL, "memory": cfg.MemoryURL,
	} {
		if url != "" {
			out[name] = erasure.Remote{Caller: svcclient.New("svc-"+name, url, signer)}
		}
	}
	return out
}

// Handler serves every route, traced.
func (s *Service) Handler() http.Handler { return s.handler }

// Routes lists the service's HTTP routes as "METHOD /path" (api.Routes).
func (s *Service) Routes() []string { return s.routes }
