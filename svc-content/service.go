// Package svccontent is the content service: what is inside documents —
// CRDT editor data, comment annotations and their locations — and the
// document-migration orchestrator. New builds it from configuration and
// dependencies so cmd/svc-content and deploy/local host the same thing.
package svccontent

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/opencollab/backend/pkg/docaccess"
	"github.com/opencollab/backend/pkg/docmigrate"
	"github.com/opencollab/backend/pkg/docscope"
	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/pkg/folderdocs"
	"github.com/opencollab/backend/pkg/service"
	"github.com/opencollab/backend/svc-content/internal/annotations"
	"github.com/opencollab/backend/svc-content/internal/crdt"
	"github.com/opencollab/backend/svc-content/internal/httpapi"
	"github.com/opencollab/backend/svc-content/internal/locations"
	"github.com/opencollab/backend/svc-content/internal/migration"
	"github.com/opencollab/backend/svc-content/internal/store"
)

// Name is the service name in logs and traces.
const Name = "svc-content"

// EventSource is the source of the events content publishes (stream
// "events:content").
const EventSource = "content"

// minMigrationLease keeps the lease well above a database round trip.
const minMigrationLease = time.Second

// Config is the service configuration, read from the environment. Empty
// service URLs mean "not deployed": features then count as enabled (no
// WORKSPACE_URL; the in-body credentials of locations/update can then not
// be checked and the operation is UNAVAILABLE), a migration skips the
// owners without an address, and without IDENTITY_URL annotation and
// comment adds with verifyUserPermissions answer UNAVAILABLE.
type Config struct {
	service.Base
	WorkspaceURL string `env:"WORKSPACE_URL"`
	IdentityURL  string `env:"IDENTITY_URL"`
	NotifyURL    string `env:"NOTIFY_URL"`
	ActivityURL  string `env:"ACTIVITY_URL"`
	MemoryURL    string `env:"MEMORY_URL"`
	// MigrationLease is how long a replica holds a migration without
	// renewing; a crashed replica's migration resumes elsewhere after it.
	// 0 (a host that builds Config by hand) means 30s.
	MigrationLease time.Duration `env:"MIGRATION_LEASE, default=30s"`
	Realtime       RealtimeConfig
	CRDT           CRDTConfig
}

// Validate checks what New needs.
func (c *Config) Validate() error {
	errs := []error{c.Base.Validate()}
	for name, u := range c.serviceURLs() {
		if err := service.CheckServiceURL(u); err != nil {
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

func (c *Config) serviceURLs() map[string]string {
	return map[string]string{
		"WORKSPACE_URL": c.WorkspaceURL, "IDENTITY_URL": c.IdentityURL, "NOTIFY_URL": c.NotifyURL,
		"ACTIVITY_URL": c.ActivityURL, "MEMORY_URL": c.MemoryURL,
	}
}

// Deps are the connected stores the service runs on.
type Deps = service.Deps

// Service is a ready-to-serve content service with its background work
// (outbox relay, migration worker) running until Close.
type Service struct {
	*service.Frame
	once     sync.Once
	realtime *realtimeDoor
}

// New creates the indexes, wires the packages, starts the outbox relay and
// the migration worker, and builds the HTTP handler.
func New(ctx context.Context, cfg Config, deps Deps) (*Service, error) {
	f, err := service.Start(ctx, Name, &cfg, deps)
	if err != nil {
		return nil, err
	}
	workspace := f.Client("svc-workspace", cfg.WorkspaceURL)
	identity := f.Client("svc-identity", cfg.IdentityURL)
	pub, err := f.Publisher(ctx, EventSource)
	if err != nil {
		return nil, err
	}
	crdtSvc := crdt.NewService(f.DB, pub, cfg.CRDT.settings())
	// No IDENTITY_URL: an unconfigured client; verifyUserPermissions then
	// answers UNAVAILABLE.
	annotationsSvc := annotations.NewService(store.New(f.DB), pub).WithPageTokens(f.PageTokens()).WithLogger(f.Logger).
		WithAccess(docaccess.NewClient(identity, "content")).WithFolders(folderdocs.NewClient(identity, "content")).
		WithAgents(memoryAgents{f.Client("svc-memory", cfg.MemoryURL)}).
		WithScope(docscope.NewClient(identity, "content"))
	own := ownData{crdt: crdtSvc, annotations: annotationsSvc}
	locationsSvc := locations.NewService(locations.NewWorkspaceCredentials(workspace), locationRewriter(annotationsSvc))
	migrations := migration.NewService(f.DB, migrationSteps(cfg, own, f), pub, f.Logger)
	if err := f.Ensure(ctx, crdtSvc.EnsureIndexes, annotationsSvc.EnsureIndexes, migrations.EnsureIndexes); err != nil {
		return nil, err
	}

	// One settings cache for feature checks and the realtime endpoints'
	// allowed domains.
	settings := features.NewChecker(workspace, 0)
	rt := startRealtime(cfg, f.Redis, crdtSvc, identity,
		f.Client("svc-activity", cfg.ActivityURL), settings, f.Logger)
	httpapi.Routes(f.Engine, f.Signer, httpapi.Services{
		CRDT: crdtSvc, Annotations: annotationsSvc, Features: settings,
		Locations: locationsSvc, Migrations: migrations, Documents: docmigrate.Keyed(own), Realtime: rt.hub, LiveState: rt.hub,
	})
	worker := migrations.NewWorker(migration.WorkerOptions{Lease: cfg.MigrationLease})
	f.Go(worker.Run)
	return &Service{Frame: f, realtime: rt}, nil
}

// Close ends the realtime sessions, then stops the background work and
// waits for it. A migration in flight is left to its lease: another
// replica (or the next start) resumes it.
func (s *Service) Close() {
	s.once.Do(func() {
		s.realtime.close()
		s.Frame.Close()
	})
}

// migrationSteps is the order a migration moves data in: content's own
// data first, the document record (identity) last, so the document is
// never seen under its new id while its data is still moving. Owners
// without an address are skipped.
func migrationSteps(cfg Config, own ownData, f *service.Frame) []migration.Step {
	steps := []migration.Step{{Name: "content", Owner: docmigrate.Keyed(own)}}
	for _, o := range []struct{ name, url string }{
		{"notify", cfg.NotifyURL},
		{"activity", cfg.ActivityURL},
		{"memory", cfg.MemoryURL},
		{"identity", cfg.IdentityURL},
	} {
		if o.url != "" {
			steps = append(steps, migration.Step{Name: o.name, Owner: docmigrate.NewClient(f.Client("svc-"+o.name, o.url), "content")})
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

// MoveDocument moves both; each is an idempotent keyed update, so a
// re-run after a partial one finishes the move.
func (d ownData) MoveDocument(ctx context.Context, ws, org, doc, newDoc string) (int64, error) {
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

// HasDocumentData reports whether either holds data of the document.
func (d ownData) HasDocumentData(ctx context.Context, ws, org, doc string) (bool, error) {
	if has, err := d.crdt.HasData(ctx, ws, org, doc); err != nil || has {
		return has, err
	}
	return d.annotations.HasData(ctx, ws, org, doc)
}
