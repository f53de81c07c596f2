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
	"time"

	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/pkg/service"
	"github.com/opencollab/backend/svc-workspace/internal/delivery"
	"github.com/opencollab/backend/svc-workspace/internal/httpapi"
	"github.com/opencollab/backend/svc-workspace/internal/secretbox"
	"github.com/opencollab/backend/svc-workspace/internal/store"
	"github.com/opencollab/backend/svc-workspace/internal/webhook"
	"github.com/opencollab/backend/svc-workspace/internal/workspace"
)

// Name is the service name in logs and traces.
const Name = "svc-workspace"

// Config is the service configuration, read from the environment.
type Config struct {
	service.Base
	BootstrapAPIKey    string `env:"BOOTSTRAP_API_KEY"`
	BootstrapAuthToken string `env:"BOOTSTRAP_AUTH_TOKEN" mask:"true"`
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

// Validate checks what New needs.
func (c *Config) Validate() error {
	if err := c.Base.Validate(); err != nil {
		return err
	}
	if (c.BootstrapAPIKey == "") != (c.BootstrapAuthToken == "") {
		return errors.New("BOOTSTRAP_API_KEY and BOOTSTRAP_AUTH_TOKEN must be set together")
	}
	if _, err := secretbox.FromBase64(c.DataEncryptionKey); err != nil {
		return fmt.Errorf("DATA_ENCRYPTION_KEY must be the base64 of %d random bytes", secretbox.KeySize)
	}
	return nil
}

// Deps are the connected stores the service runs on.
type Deps = service.Deps

// Service is a ready-to-serve workspace service with its webhook delivery
// running in the background until Close. Close waits for in-flight
// deliveries; unacknowledged events and undelivered messages stay stored
// for the next start.
type Service struct{ *service.Frame }

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
	f, err := service.Start(ctx, Name, &cfg, deps)
	if err != nil {
		return nil, err
	}
	mongoStore := store.NewMongo(f.DB)
	if err := f.Ensure(ctx, mongoStore.EnsureIndexes); err != nil {
		return nil, err
	}
	hooks, deliveries, err := newWebhooks(ctx, cfg, f, mongoStore)
	if err != nil {
		return nil, f.Fail(err)
	}
	svc := workspace.NewService(switchWatch{Mongo: mongoStore, changed: hooks.ForgetTargets}, store.NewCredentialCache(f.Redis))
	if cfg.BootstrapAPIKey != "" {
		if err := svc.Bootstrap(ctx, cfg.BootstrapAPIKey, cfg.BootstrapAuthToken); err != nil {
			return nil, f.Fail(err)
		}
		f.Logger.InfoContext(ctx, "bootstrap workspace ready")
	}
	httpapi.Routes(f.Engine, f.Signer, svc, hooks, deliveries)
	streams := cfg.EventStreams
	if len(streams) == 0 {
		streams = DefaultEventStreams
	}
	f.Go(func(ctx context.Context) {
		if err := deliveries.Run(ctx, f.Redis, streams); err != nil {
			f.Logger.ErrorContext(ctx, "webhook delivery stopped", "error", err)
		}
	})
	return &Service{f}, nil
}

// newWebhooks builds the webhook configuration service and the delivery
// that consumes events for it.
func newWebhooks(ctx context.Context, cfg Config, f *service.Frame, st *store.Mongo) (*webhook.Service, *delivery.Service, error) {
	box, _ := secretbox.FromBase64(cfg.DataEncryptionKey) // checked by Validate
	if box == nil {
		f.Logger.WarnContext(ctx, "DATA_ENCRYPTION_KEY is not configured: email and webhook settings cannot be changed")
	}
	hooks := webhook.NewService(st, st, f.PageTokens(), webhook.Options{
		Box: box, TargetCacheTTL: cfg.WebhookTargetCacheTTL, AllowPrivateTargets: cfg.WebhookAllowPrivateTargets,
	})
	deliveries := delivery.NewService(f.DB, hooks, delivery.Options{
		AllowPrivateTargets: cfg.WebhookAllowPrivateTargets, Logger: f.Logger,
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
