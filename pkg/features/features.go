// Package features answers whether a workspace has a feature switched on
// (and whether an origin is among its allowed domains).
// The switches live in svc-workspace (operators set them); a Checker asks
// its /internal/settings/get route and caches the answer per workspace in
// process for a few seconds, so a switch takes effect within that TTL.
package features

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/origins"
	"github.com/opencollab/backend/pkg/svcclient"
)

// Name is a feature switch of a workspace.
type Name string

// The switches. A workspace that never set one has it enabled.
const (
	ActivityService    Name = "activityService"    // /v2/activities/*
	NotificationConfig Name = "notificationConfig" // /v1|v2/notifications/config/*
	AdvancedQueries    Name = "advancedQueries"    // users/get, folders/update, notifications/get v2, commentannotations/get
	AdvancedWebhooks   Name = "advancedWebhooks"
)

// All lists every switch, in a stable order.
func All() []Name {
	return []Name{ActivityService, NotificationConfig, AdvancedQueries, AdvancedWebhooks}
}

// SettingsPath is svc-workspace's route the Checker asks.
const SettingsPath = "/internal/settings/get"

// SettingsRequest and SettingsResponse are the body data and result.data of
// SettingsPath. Features holds every switch with its effective value.
type (
	SettingsRequest struct {
		WorkspaceID string `json:"workspaceId"`
	}
	SettingsResponse struct {
		WorkspaceID string        `json:"workspaceId"`
		Features    map[Name]bool `json:"features"`
		// AllowedDomains are the workspace's allowed web origins
		// (pkg/origins entries); empty allows every origin.
		AllowedDomains []string `json:"allowedDomains,omitempty"`
	}
)

// DefaultTTL is how long a workspace's switches are trusted without asking.
const DefaultTTL = 5 * time.Second

// lookupTimeout bounds one question to svc-workspace. The lookup is shared
// by every request waiting for it, so it does not die with the first
// caller's context.
const lookupTimeout = 5 * time.Second

// principal is the Checker's identity towards svc-workspace.
var principal = internalauth.Service("features")

// Checker answers feature questions for one service.
type Checker struct {
	workspace *svcclient.Client
	ttl       time.Duration
	cache     sync.Map // workspace id → *entry
	lookups   singleflight.Group
	now       func() time.Time
}

// entry is the cached settings of one workspace.
type entry struct {
	settings SettingsResponse
	expires  time.Time
}

// NewChecker returns a checker asking svc-workspace through workspace and
// caching answers for ttl (DefaultTTL when ttl <= 0). With a nil (or
// unconfigured) client every feature counts as enabled: that is how tests
// and embedded setups without a WORKSPACE_URL run.
func NewChecker(workspace *svcclient.Client, ttl time.Duration) *Checker {
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	return &Checker{workspace: workspace, ttl: ttl, now: time.Now}
}

// Require returns nil when f is enabled for workspaceID, a
// FAILED_PRECONDITION *api.Error when it is off, and UNAVAILABLE when the
// switches are neither cached nor reachable.
func (c *Checker) Require(ctx context.Context, workspaceID string, f Name) error {
	if c == nil || !c.workspace.Configured() {
		return nil
	}
	set, err := c.settings(ctx, workspaceID)
	if err != nil {
		return err
	}
	if on, known := set.Features[f]; known && !on {
		return api.Errorf(api.FailedPrecondition, "%s is not enabled for this workspace; an operator can enable it", f)
	}
	return nil
}

// AllowsOrigin reports whether a browser's Origin header may open the
// workspace's realtime endpoints (pkg/origins.Allowed over its allowed
// domains). Without a workspace service every origin is allowed; an origin
// of "" never needs a lookup.
func (c *Checker) AllowsOrigin(ctx context.Context, workspaceID, origin string) (bool, error) {
	if c == nil || !c.workspace.Configured() || origin == "" {
		return true, nil
	}
	set, err := c.settings(ctx, workspaceID)
	if err != nil {
		return false, err
	}
	return origins.Allowed(set.AllowedDomains, origin), nil
}

// settings returns the cached settings of workspaceID, fetching them when
// missing or expired. When the fetch fails a stale value is used rather
// than failing requests while svc-workspace is briefly away.
func (c *Checker) settings(ctx context.Context, workspaceID string) (SettingsResponse, error) {
	cached, _ := c.cache.Load(workspaceID)
	old, _ := cached.(*entry)
	if old != nil && c.now().Before(old.expires) {
		return old.settings, nil
	}
	fresh, err := c.fetchShared(ctx, workspaceID)
	if err == nil {
		return fresh, nil
	}
	if old != nil {
		slog.WarnContext(ctx, "features: settings lookup failed, using the stale value",
			"workspaceId", workspaceID, "error", err)
		// Trust the stale value for another TTL so a down svc-workspace is
		// not asked again by every request.
		c.cache.CompareAndSwap(workspaceID, old, &entry{settings: old.settings, expires: c.now().Add(c.ttl)})
		return old.settings, nil
	}
	slog.WarnContext(ctx, "features: settings lookup failed", "workspaceId", workspaceID, "error", err)
	return SettingsResponse{}, api.Errorf(api.Unavailable, "workspace settings are unavailable; retry the request")
}

// fetchShared runs one lookup per workspace at a time; concurrent callers
// wait for it (or for their own context).
func (c *Checker) fetchShared(ctx context.Context, workspaceID string) (SettingsResponse, error) {
	ch := c.lookups.DoChan(workspaceID, func() (any, error) {
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), lookupTimeout)
		defer cancel()
		return c.fetch(lctx, workspaceID)
	})
	select {
	case <-ctx.Done():
		return SettingsResponse{}, ctx.Err()
	case res := <-ch:
		if res.Err != nil {
			return SettingsResponse{}, res.Err
		}
		return res.Val.(SettingsResponse), nil
	}
}

func (c *Checker) fetch(ctx context.Context, workspaceID string) (SettingsResponse, error) {
	var out SettingsResponse
	if err := c.workspace.Call(ctx, SettingsPath, principal, SettingsRequest{WorkspaceID: workspaceID}, &out); err != nil {
		return SettingsResponse{}, err
	}
	if out.Features == nil {
		out.Features = map[Name]bool{}
	}
	c.cache.Store(workspaceID, &entry{settings: out, expires: c.now().Add(c.ttl)})
	return out, nil
}
