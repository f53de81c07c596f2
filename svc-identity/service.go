// Package svcidentity is the identity service: users, organizations,
// folders and documents as access-controlled resources, memberships and
// roles, user groups, permission signatures and user tokens. New builds it
// from configuration and dependencies so cmd/svc-identity and deploy/local
// host the same thing.
package svcidentity

import (
	"context"
	"time"

	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/pkg/service"
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

// Config is the service configuration, read from the environment.
type Config struct {
	service.Base
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

// Deps are the connected stores the service runs on.
type Deps = service.Deps

// Service is a ready-to-serve identity service; Close stops the outbox
// relay of the access events and the erasure worker.
type Service struct{ *service.Frame }

// EventSource is the source of identity's events (stream
// "events:identity"): today only AccessRemovedEvent.
const EventSource = "identity"

// AccessRemovedEvent says users' grants were removed (permissions/remove,
// users/delete); svc-content ends their realtime sessions that no longer
// have access. Its data is {"userIds": [...]} (at most
// accessEventUsers), with "userId" too when it names one user (the shape
// of one event per user, which consumers before the batch read).
const AccessRemovedEvent = "identity.access_removed"

// accessEventUsers is the most users one AccessRemovedEvent names. One
// event per user cost an outbox document each, which the embedded store
// writes (and marks relayed) one commit at a time: a users/delete of 1,000
// took seconds for its events alone.
const accessEventUsers = 250

// accessEvents publishes AccessRemovedEvent: the removals of a batch
// grouped by organization, accessEventUsers users an event, in one Publish.
type accessEvents struct{ pub *events.Publisher }

func (a accessEvents) AccessRemoved(ctx context.Context, ws string, removed []identity.AccessRemoval) error {
	var evs []events.Event
	for _, g := range usersByOrganization(removed) {
		for start := 0; start < len(g.users); start += accessEventUsers {
			users := g.users[start:min(start+accessEventUsers, len(g.users))]
			data := map[string]any{"userIds": users}
			if len(users) == 1 {
				data["userId"] = users[0]
			}
			ev, err := events.New(AccessRemovedEvent, EventSource, ws, g.org, "", data)
			if err != nil {
				return err
			}
			evs = append(evs, ev)
		}
	}
	return a.pub.Publish(ctx, evs...)
}

// orgUsers are the users of removals in one organization.
type orgUsers struct {
	org   string
	users []string
}

// usersByOrganization groups removals by organization, in order of first
// appearance.
func usersByOrganization(removed []identity.AccessRemoval) []orgUsers {
	var out []orgUsers
	at := map[string]int{}
	for _, r := range removed {
		i, ok := at[r.OrganizationID]
		if !ok {
			i = len(out)
			at[r.OrganizationID] = i
			out = append(out, orgUsers{org: r.OrganizationID})
		}
		out[i].users = append(out[i].users, r.UserID)
	}
	return out
}

// New creates the indexes and builds the HTTP handler.
func New(ctx context.Context, cfg Config, deps Deps) (*Service, error) {
	f, err := service.Start(ctx, Name, &cfg, deps)
	if err != nil {
		return nil, err
	}
	mongoStore := store.New(f.DB)
	secrets := signing.NewSecretStore(f.DB)
	revocations := store.NewRevocations(f.DB)
	if err := f.Ensure(ctx, mongoStore.EnsureIndexes, secrets.EnsureIndexes, revocations.EnsureIndexes); err != nil {
		return nil, err
	}
	if n, err := mongoStore.ConvertExpiresToMillis(ctx); err != nil {
		return nil, f.Fail(err)
	} else if n > 0 {
		f.Logger.InfoContext(ctx, "converted stored grant expiries from seconds to milliseconds", "grants", n)
	}
	pub, err := f.Publisher(ctx, EventSource)
	if err != nil {
		return nil, err
	}
	pages := f.PageTokens()
	ids := identity.NewService(mongoStore, pages, time.Now).WithRevocations(revocations, accessEvents{pub})
	// users/data/get answers UNAVAILABLE while content or notify has no address.
	backends := httpapi.Backends{
		Features: features.NewChecker(f.Client("svc-workspace", cfg.WorkspaceURL), 0),
		UserData: userdata.NewService(
			svcclient.New("svc-content", cfg.ContentURL, f.Signer),
			svcclient.New("svc-notify", cfg.NotifyURL, f.Signer),
			pages, ids),
	}
	erasures := erasure.NewService(store.NewErasureJobs(f.DB), erasers(cfg, f, mongoStore), f.Logger)
	backends.Erasure = erasures
	httpapi.Routes(f.Engine, f.Signer, ids, secrets, time.Now, backends)
	interval := cfg.ErasureInterval
	if interval <= 0 {
		interval = 10 * time.Second
	}
	// The worker picks up what a crash left pending as soon as it starts.
	f.Go(func(ctx context.Context) { erasures.Run(ctx, interval) })
	return &Service{f}, nil
}

// erasers are the services users/data/delete erases in: identity itself
// and every other service with an address.
func erasers(cfg Config, f *service.Frame, own erasure.LocalStore) map[string]erasure.Eraser {
	out := map[string]erasure.Eraser{"identity": erasure.Local{Store: own}}
	for name, url := range map[string]string{
		"content": cfg.ContentURL, "notify": cfg.NotifyURL, "activity": cfg.ActivityURL,
		"workspace": cfg.WorkspaceURL, "memory": cfg.MemoryURL,
	} {
		if url != "" {
			out[name] = erasure.Remote{Caller: f.Client("svc-"+name, url)}
		}
	}
	return out
}
