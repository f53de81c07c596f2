// Package svcactivity is the activity service: activity log records (add,
// update, get, delete), the events every accepted change publishes for
// memory and webhooks, and the document-migration hooks svc-content calls.
// New builds it from configuration and dependencies so cmd/svc-activity and
// deploy/local host the same thing.
package svcactivity

import (
	"context"
	"time"

	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/pkg/service"
	"github.com/opencollab/backend/svc-activity/internal/activity"
	"github.com/opencollab/backend/svc-activity/internal/httpapi"
	"github.com/opencollab/backend/svc-activity/internal/store"
)

// Name is the service name in logs and traces.
const Name = "svc-activity"

// Config is the service configuration, read from the environment.
type Config struct {
	service.Base
	// WorkspaceURL is svc-workspace, asked for the workspace's feature
	// switches. Empty: every feature counts as enabled.
	WorkspaceURL string `env:"WORKSPACE_URL"`
}

// Deps are the connected stores the service runs on.
type Deps = service.Deps

// Service is a ready-to-serve activity service. Close stops its outbox
// relay; events still in the outbox stay there for the next start.
type Service struct{ *service.Frame }

// New creates the indexes (the records' and the event outbox's), starts
// the outbox relay and builds the HTTP handler.
func New(ctx context.Context, cfg Config, deps Deps) (*Service, error) {
	f, err := service.Start(ctx, Name, &cfg, deps)
	if err != nil {
		return nil, err
	}
	mongoStore := store.NewMongo(f.DB)
	publisher, err := f.Publisher(ctx, activity.EventSource, mongoStore.EnsureIndexes)
	if err != nil {
		return nil, err
	}
	svc := activity.NewService(mongoStore, publisher, f.PageTokens(), time.Now)
	// No WORKSPACE_URL: a nil client, every feature enabled.
	httpapi.Routes(f.Engine, f.Signer, svc, features.NewChecker(f.Client("svc-workspace", cfg.WorkspaceURL), 0))
	return &Service{f}, nil
}
