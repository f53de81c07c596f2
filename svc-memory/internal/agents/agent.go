// Package agents is the business logic of agents (adjacent-operations §12,
// rest-interface /v2/agents/update): built-in agents, present in every
// workspace, and custom agents with versioned behavioural configuration.
//
// An agent's identity (name, description, enabled, metadata) lives on its
// root record and changes without a new version; its behaviour
// (instructions, contextGathering, execution, ...) lives in numbered
// versions, and version/update creates the next one.
package agents

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// Agent is the root record of a custom agent.
type Agent struct {
	ID          string
	Name        string
	Description string
	Enabled     bool
	Version     int             // the current version
	Metadata    json.RawMessage // object, nil when never set
	CreatedAt   int64
}

// Version is one behavioural configuration of a custom agent: an object
// holding the behavioural fields and any extra fields the client sent.
type Version struct {
	AgentID   string
	Version   int
	Config    json.RawMessage
	CreatedAt int64
}

// IdentityPatch is an update of identity fields; nil leaves a field.
type IdentityPatch struct {
	Name        *string
	Description *string
	Enabled     *bool
}

func (p IdentityPatch) empty() bool { return p.Name == nil && p.Description == nil && p.Enabled == nil }

// Store is the persistence of agents. Every method is scoped to one
// workspace.
type Store interface {
	CountCustom(ctx context.Context, ws string) (int64, error)
	// Create stores version 1 and then the agent (an agent is never
	// without its configuration).
	Create(ctx context.Context, ws string, a Agent, v Version) error
	Find(ctx context.Context, ws, id string) (Agent, bool, error)
	List(ctx context.Context, ws string) ([]Agent, error)
	// UpdateIdentity applies p, reporting whether the agent exists.
	UpdateIdentity(ctx context.Context, ws, id string, p IdentityPatch) (bool, error)
	// Delete removes the agent and all its versions; unknown ids are fine.
	Delete(ctx context.Context, ws, id string) error
	// LatestVersion is the highest stored version of the agent.
	LatestVersion(ctx context.Context, ws, id string) (Version, bool, error)
	// AddVersion stores v; ErrVersionTaken when that number exists.
	AddVersion(ctx context.Context, ws string, v Version) error
	// PointTo moves the agent's current version forward to v (never back)
	// and, unless metadata is nil, replaces its metadata.
	PointTo(ctx context.Context, ws, id string, v int, metadata json.RawMessage) error
	// Versions lists the agent's versions, newest first.
	Versions(ctx context.Context, ws, id string) ([]Version, error)
	// BuiltinEnabled returns the stored enabled state of built-in agents
	// (absent: the default).
	BuiltinEnabled(ctx context.Context, ws string) (map[string]bool, error)
	SetBuiltinEnabled(ctx context.Context, ws, id string, enabled bool) error
}

// ErrVersionTaken: a concurrent version/update stored that number first.
var ErrVersionTaken = errors.New("agent version already exists")

// PageTokens keeps pagination cursors (pkg/pagetoken.Store).
type PageTokens interface {
	Save(ctx context.Context, workspaceID, queryKey, cursor string) (string, error)
	Load(ctx context.Context, workspaceID, queryKey, token string) (string, error)
}

// MaxCustomAgents is the custom-agent cap per workspace.
const MaxCustomAgents = 100

// managedBy values.
const (
	managedByCustomer = "customer"
	managedByBuiltin  = "builtin"
)

// Service runs the agent operations.
type Service struct {
	store Store
	pages PageTokens
	now   func() time.Time
}

// NewService returns a Service over its dependencies.
func NewService(store Store, pages PageTokens, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{store: store, pages: pages, now: now}
}
