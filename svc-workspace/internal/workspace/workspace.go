// Package workspace is the business logic of workspaces and their
// credentials: API keys (stored as is, they name a workspace) and auth tokens
// (stored only as SHA-256 hashes, shown once when created).
package workspace

import (
	"context"
	"sync"
	"time"

	"github.com/opencollab/backend/pkg/features"
)

// Workspace is one customer workspace. Later features (webhooks) hang off
// the workspace id.
type Workspace struct {
	ID        string
	APIKey    string
	Name      string
	CreatedAt time.Time
	// Switches are the feature switches an operator has set; a feature
	// missing here is enabled (see EffectiveFeatures).
	Switches map[features.Name]bool
	// Domains are the allowed web origins of the realtime endpoints
	// (pkg/origins entries, in the order added); DomainsVersion counts
	// their changes, for compare-and-swap writes.
	Domains        []string
	DomainsVersion int64
}

// Store is the persistence the operations need.
type Store interface {
	// InsertWorkspace adds w; ErrDuplicate when its id or API key exists.
	InsertWorkspace(ctx context.Context, w Workspace) error
	// WorkspaceByAPIKey returns the workspace of apiKey or ErrNotFound.
	WorkspaceByAPIKey(ctx context.Context, apiKey string) (Workspace, error)
	// WorkspaceByID returns the workspace with id or ErrNotFound.
	WorkspaceByID(ctx context.Context, id string) (Workspace, error)
	// SetFeatureSwitches stores the given switches of workspaceID, leaving
	// the others as they are, and returns the workspace as updated;
	// ErrNotFound when it does not exist.
	SetFeatureSwitches(ctx context.Context, workspaceID string, switches map[features.Name]bool) (Workspace, error)
	// SaveDomains replaces the allowed domains of workspaceID if they are
	// still at version fromVersion; ErrConflict when they moved,
	// ErrNotFound when the workspace does not exist.
	SaveDomains(ctx context.Context, workspaceID string, fromVersion int64, domains []string) error
	// AddToken makes tokenHash a live token of workspaceID. Adding the same
	// hash to the same workspace again is a no-op; ErrDuplicate when the hash
	// belongs to another workspace.
	AddToken(ctx context.Context, workspaceID, tokenHash string, at time.Time) error
	// RevokeToken deletes tokenHash of workspaceID; ErrNotFound when it is
	// not a live token of that workspace.
	RevokeToken(ctx context.Context, workspaceID, tokenHash string) error
	// TokenHashes lists the hashes of the live tokens of workspaceID.
	TokenHashes(ctx context.Context, workspaceID string) ([]string, error)
}

// CredentialCache is the gateway's cache of credential lookups, which must
// forget an API key whenever its tokens change.
type CredentialCache interface {
	Invalidate(ctx context.Context, apiKey string) error
}

// Service runs the credential operations.
type Service struct {
	store Store
	cache CredentialCache
	now   func() time.Time
	// domainsMu serializes this replica's changes of allowed domains: the
	// store's compare-and-swap keeps replicas apart on MongoDB, but the
	// embedded FerretDB v1 does not match filter and write atomically
	// under concurrent updates (lost adds in TestDomainsConcurrentAddsLoseNothing).
	domainsMu sync.Mutex
}

// NewService returns a Service over store and cache.
func NewService(store Store, cache CredentialCache) *Service {
	return &Service{store: store, cache: cache, now: time.Now}
}

// Credentials are an API key with a freshly issued auth token, the only time
// the token is seen in clear.
type Credentials struct {
	WorkspaceID string
	APIKey      string
	AuthToken   string
}
