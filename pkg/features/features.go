// Package features answers whether a workspace has a feature switched on.
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

// entry is the cached switches of one workspace.
type entry struct {
	features map[Name]bool
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
	switches, err := c.switches(ctx, workspaceID)
	if err != nil {
		return err
	}
	if on, set := switches[f]; set && !on {
		return api.Errorf(api.FailedPrecondition, "%s is not enabled for this workspace; an operator can enable it", f)
	}
	return nil
}

// switches returns the cached switches of workspaceID, fetching them when
// missing or expired. When the fetch fails a stale value is used rather
// than failing requests while svc-workspace is briefly away.
func (c *Checker) switches(ctx context.Context, workspaceID string) (map[Name]bool, error) {
	cached, _ := c.cache.Load(workspaceID)
	old, _ := cached.(*entry)
	if old != nil && c.now().Before(old.expires) {
		return old.features, nil
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
		c.cache.CompareAndSwap(workspaceID, old, &entry{features: old.features, expires: c.now().Add(c.ttl)})
		return old.features, nil
	}
	slog.WarnContext(ctx, "features: settings lookup failed", "workspaceId", workspaceID, "error", err)
	return nil, api.Errorf(api.Unavailable, "workspace settings are unavailable; retry the request")
}

// fetchShared runs one lookup per workspace at a time; concurrent callers
// wait for it (or for their own context).
func (c *Checker) fetchShared(ctx context.Context, workspaceID string) (map[Name]bool, error) {
	ch := c.lookups.DoChan(workspaceID, func() (any, error) {
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), lookupTimeout)
		defer cancel()
		return c.fetch(lctx, workspaceID)
	})
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case res := <-ch:
		if res.Err != nil {
			return nil, res.Err
		}
		return res.Val.(map[Name]bool), nil
	}
}

func (c *Checker) fetch(ctx context.Context, workspaceID string) (map[Name]bool, error) {
	var out SettingsResponse
	if err := c.workspace.Call(ctx, SettingsPath, principal, SettingsRequest{WorkspaceID: workspaceID}, &out); err != nil {
		return nil, err
	}
	if out.Features == nil {
		out.Features = map[Name]bool{}
	}
	c.cache.Store(workspaceID, &entry{features: out.Features, expires: c.now().Add(c.ttl)})
	return out.Features, nil
}
