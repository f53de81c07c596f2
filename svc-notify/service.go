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

	"github.com/opencollab/backend/pkg/docaccess"
	"github.com/opencollab/backend/pkg/docscope"
	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/pkg/service"
	"github.com/opencollab/backend/svc-notify/internal/httpapi"
	"github.com/opencollab/backend/svc-notify/internal/notify"
	"github.com/opencollab/backend/svc-notify/internal/store"
)

// Name is the service name in logs and traces.
const Name = "svc-notify"

// Config is the service configuration, read from the environment.
type Config struct {
	service.Base
	// WorkspaceURL is svc-workspace, asked for the workspace's feature
	// switches. Empty: every feature counts as enabled.
	WorkspaceURL string `env:"WORKSPACE_URL"`
	// IdentityURL is svc-identity, asked which recipients have access to
	// the document when an add sends verifyUserPermissions. Empty: such
	// adds answer UNAVAILABLE and store nothing (the others work).
	IdentityURL string `env:"IDENTITY_URL"`
}

// Validate checks what New needs.
func (c *Config) Validate() error {
	errs := []error{c.Base.Validate()}
	for _, setting := range [...]struct{ name, url string }{{"WORKSPACE_URL", c.WorkspaceURL}, {"IDENTITY_URL", c.IdentityURL}} {
		if err := service.CheckServiceURL(setting.url); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", setting.name, err))
		}
	}
	return errors.Join(errs...)
}

// Deps are the connected stores the service runs on.
type Deps = service.Deps

// Service is a ready-to-serve notification service. Close stops its outbox
// relay; events still in the outbox stay there for the next start.
type Service struct{ *service.Frame }

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
	f, err := service.Start(ctx, Name, &cfg, deps)
	if err != nil {
		return nil, err
	}
	mongoStore := store.NewMongo(f.DB)
	publisher, err := f.Publisher(ctx, notify.EventSource, mongoStore.EnsureIndexes)
	if err != nil {
		return nil, err
	}
	// No IDENTITY_URL: an unconfigured client, which answers UNAVAILABLE.
	identity := f.Client("svc-identity", cfg.IdentityURL)
	svc := notify.NewService(mongoStore, f.PageTokens(), publisher, f.Logger).
		WithAccess(docaccess.NewClient(identity, "notify")).WithScope(docscope.NewClient(identity, "notify"))
	// No WORKSPACE_URL: a nil client, every feature enabled.
	httpapi.Routes(f.Engine, f.Signer, svc, features.NewChecker(f.Client("svc-workspace", cfg.WorkspaceURL), 0))
	return &Service{f}, nil
}
