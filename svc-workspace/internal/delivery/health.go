package delivery

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// cleanFor is how long an endpoint known to have no failure streak skips
// the store on its successes: one write per endpoint and minute instead of
// one per delivery, at the price of a streak ending up to a minute late.
const cleanFor = time.Minute

// health tracks endpoints' failure streaks and disables an endpoint whose
// streak is older than DisableAfter. A streak starts at a failed attempt and
// ends at any successful one, of any message.
type health struct {
	store   *store
	targets Targets
	now     func() time.Time
	logger  *slog.Logger

	mu    sync.Mutex
	clean map[string]time.Time // endpoint key → streak known absent until
}

// observe takes the outcome of a completed (not interrupted) attempt.
// Errors are logged: health tracking never holds up a delivery.
func (h *health) observe(ctx context.Context, m messageDoc, out outcomeDoc) {
	key := m.WorkspaceID + ":" + m.EndpointID
	if out.Succeeded {
		if h.knownClean(key) {
			return
		}
		if err := h.store.clearFailing(ctx, m.WorkspaceID, m.EndpointID); err != nil {
			h.logger.WarnContext(ctx, "clear endpoint failure streak", "endpointId", m.EndpointID, "error", err)
			return
		}
		h.setClean(key, true)
		return
	}
	h.setClean(key, false)
	since, err := h.store.markFailing(ctx, m.WorkspaceID, m.EndpointID, out.FinishedAt)
	if err != nil {
		h.logger.WarnContext(ctx, "record endpoint failure", "endpointId", m.EndpointID, "error", err)
		return
	}
	if h.now().Sub(since) < DisableAfter {
		return
	}
	if err := h.targets.DisableEndpoint(ctx, m.WorkspaceID, m.EndpointID, "failing for 5 days"); err != nil {
		h.logger.WarnContext(ctx, "disable failing endpoint", "endpointId", m.EndpointID, "error", err)
		return
	}
	h.logger.InfoContext(ctx, "disabled an endpoint failing for 5 days",
		"workspaceId", m.WorkspaceID, "endpointId", m.EndpointID, "failingSince", since)
	// Re-enabled later, the endpoint starts with a clean record.
	if err := h.store.clearFailing(ctx, m.WorkspaceID, m.EndpointID); err != nil {
		h.logger.WarnContext(ctx, "clear endpoint failure streak", "endpointId", m.EndpointID, "error", err)
	}
}

func (h *health) knownClean(key string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return time.Now().Before(h.clean[key])
}

func (h *health) setClean(key string, clean bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.clean == nil {
		h.clean = map[string]time.Time{}
	}
	if !clean {
		delete(h.clean, key)
		return
	}
	if len(h.clean) > 100_000 { // bound memory; forgetting only costs a write
		clear(h.clean)
	}
	h.clean[key] = time.Now().Add(cleanFor)
}
