// Package webhook is the workspace configuration of outgoing notifications:
// the email service configuration, the advanced webhook configuration, the
// delivery endpoints and their signing secrets. Secrets and the email
// provider's API key are stored sealed (internal/secretbox) and never
// logged; an endpoint's secret leaves the service only through
// EndpointSecret (secret/get) and DeliveryTarget(s) (signing).
package webhook

import (
	"context"
	"errors"
	"time"

	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/svc-workspace/internal/secretbox"
)

// Store errors. The store maps driver errors onto these.
var (
	// ErrNotFound: no such record (for DeliveryTarget: the endpoint was deleted).
	ErrNotFound = errors.New("webhook: not found")
	// ErrDuplicate: a unique value (an endpoint uid) is taken.
	ErrDuplicate = errors.New("webhook: duplicate")
	// ErrConflict: the record changed since it was read; read again and retry.
	ErrConflict = errors.New("webhook: changed concurrently")
)

// Config is the advanced webhook configuration of a workspace.
type Config struct {
	IsEnabled, EncryptData, EncodeData, EnableDataProtection bool
	PublicKey                                                string
}

// Endpoint is a delivery endpoint as the API shows it.
type Endpoint struct {
	ID, WorkspaceID, URL string
	Description          *string
	FilterTypes          []string // nil: every event type
	Channels             []string // nil: every channel
	Disabled             bool
	RateLimit            *int
	UID                  *string
	CreatedAt, UpdatedAt time.Time
}

// DeliveryTarget is an endpoint with its raw HMAC keys, current first; two
// during a rotation's 24 h overlap.
type DeliveryTarget struct {
	Endpoint Endpoint
	Secrets  [][]byte
}

// EndpointRecord is an endpoint as stored: with what the API never shows.
type EndpointRecord struct {
	Endpoint
	Metadata map[string]string
	Secrets  []Secret
	// SecretsVersion changes with every rotation, so two rotations at once
	// cannot both win.
	SecretsVersion int64
}

// Secret is one signing secret, sealed. The current one has no ExpiresAt;
// a rotated-out one is valid until ExpiresAt.
type Secret struct {
	Sealed    string
	ExpiresAt *time.Time
}

// EmailStore persists the email service configuration, one per workspace.
type EmailStore interface {
	// EmailConfig returns the stored configuration and its version;
	// ErrNotFound when never configured.
	EmailConfig(ctx context.Context, workspaceID string) (EmailConfig, int64, error)
	// SaveEmailConfig stores c if the stored version is still version (0:
	// none stored yet); ErrConflict otherwise.
	SaveEmailConfig(ctx context.Context, workspaceID string, c EmailConfig, version int64) error
}

// ConfigStore persists the advanced webhook configuration, one per workspace.
type ConfigStore interface {
	// WebhookConfig is EmailConfig for the advanced webhook configuration.
	WebhookConfig(ctx context.Context, workspaceID string) (Config, int64, error)
	// SaveWebhookConfig is SaveEmailConfig for it.
	SaveWebhookConfig(ctx context.Context, workspaceID string, c Config, version int64) error
}

// EndpointStore persists endpoints. Every method is scoped to a workspace.
type EndpointStore interface {
	// InsertEndpoint adds e; ErrDuplicate when its uid is taken in the workspace.
	InsertEndpoint(ctx context.Context, e EndpointRecord) error
	// EndpointByID returns an endpoint or ErrNotFound.
	EndpointByID(ctx context.Context, workspaceID, id string) (EndpointRecord, error)
	// ListEndpoints returns one page in (createdAt, id) order (see EndpointQuery).
	ListEndpoints(ctx context.Context, workspaceID string, q EndpointQuery) ([]Endpoint, error)
	// ActiveEndpoints returns every endpoint that is not disabled.
	ActiveEndpoints(ctx context.Context, workspaceID string) ([]EndpointRecord, error)
	// UpdateEndpoint applies ch (validated) at the given time and returns
	// the endpoint as updated; ErrNotFound.
	UpdateEndpoint(ctx context.Context, workspaceID, id string, ch EndpointChanges, at time.Time) (Endpoint, error)
	// ReplaceEndpointSecrets stores secrets if the endpoint's secrets are
	// still at version; ErrConflict when they moved, ErrNotFound when gone.
	ReplaceEndpointSecrets(ctx context.Context, workspaceID, id string, version int64, secrets []Secret, at time.Time) error
	// DisableEndpoint marks an endpoint disabled with the reason; ErrNotFound.
	DisableEndpoint(ctx context.Context, workspaceID, id, reason string, at time.Time) error
	// DeleteEndpoint removes an endpoint and its secrets; ErrNotFound.
	DeleteEndpoint(ctx context.Context, workspaceID, id string) error
}

// Store is all the persistence of the package.
type Store interface {
	EmailStore
	ConfigStore
	EndpointStore
}

// Switches reads the feature switches operators set (svc-workspace's own
// store: no round trip through its HTTP API).
type Switches interface {
	// FeatureSwitch returns the switch of f and whether one was ever set.
	FeatureSwitch(ctx context.Context, workspaceID string, f features.Name) (on, set bool, err error)
}

// Pages keeps list cursors behind opaque tokens (pkg/pagetoken).
type Pages interface {
	Save(ctx context.Context, workspaceID, queryKey, cursor string) (string, error)
	Load(ctx context.Context, workspaceID, queryKey, token string) (string, error)
}

// Options are the optional parts of a Service.
type Options struct {
	// Box seals secrets; nil when DATA_ENCRYPTION_KEY is not configured,
	// and then every write answers FAILED_PRECONDITION.
	Box *secretbox.Box
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// TargetCacheTTL is how long DeliveryTargets and DeliveryTarget reuse
	// what they read of a workspace (DefaultTargetCacheTTL when zero, no
	// cache when negative). Changes made through another replica reach
	// this one's deliveries only after it; see targetCache.
	TargetCacheTTL time.Duration
	// AllowPrivateTargets accepts endpoint URLs naming localhost or
	// non-public addresses (WEBHOOK_ALLOW_PRIVATE_TARGETS).
	AllowPrivateTargets bool
}

// Service runs the operations.
type Service struct {
	store    Store
	switches Switches
	pages    Pages
	box      *secretbox.Box
	now      func() time.Time
	targets  *targetCache
	// allowPrivate: see Options.AllowPrivateTargets.
	allowPrivate bool
}

// NewService returns a Service.
func NewService(store Store, switches Switches, pages Pages, opts Options) *Service {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	ttl := opts.TargetCacheTTL
	if ttl == 0 {
		ttl = DefaultTargetCacheTTL
	}
	return &Service{
		store: store, switches: switches, pages: pages, box: opts.Box, now: now,
		targets: newTargetCache(ttl, now), allowPrivate: opts.AllowPrivateTargets,
	}
}

// ForgetTargets drops what this replica cached of workspaceID's delivery
// targets, so its deliveries see a change at once. The operations of this
// package call it themselves; the host calls it when the operator's
// advancedWebhooks switch changes, which this package does not write.
func (s *Service) ForgetTargets(workspaceID string) { s.targets.invalidate(workspaceID) }

// clock returns the current time as stored: UTC, millisecond precision
// (what MongoDB keeps), so a value reads back equal.
func (s *Service) clock() time.Time { return s.now().UTC().Truncate(time.Millisecond) }
