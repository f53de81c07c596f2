package webhook

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"
)

// DeliveryTargets returns the configuration and the endpoints an event of
// eventType goes to: enabled endpoints whose filterTypes contain it (nil
// filterTypes: every type). Channels do not filter: events carry none.
// When advanced webhooks are off (not configured, isEnabled false or the
// operator switch off) Config.IsEnabled is false and there are no targets.
// The answer may be up to Options.TargetCacheTTL old (see targetCache);
// the targets are shared and must not be modified.
func (s *Service) DeliveryTargets(ctx context.Context, workspaceID, eventType string) (Config, []DeliveryTarget, error) {
	w, err := s.targets.get(ctx, workspaceID, s.loadTargets(workspaceID))
	if err != nil || !w.cfg.IsEnabled {
		return w.cfg, nil, err
	}
	var targets []DeliveryTarget
	for _, t := range w.targets {
		if t.Endpoint.FilterTypes == nil || slices.Contains(t.Endpoint.FilterTypes, eventType) {
			targets = append(targets, t)
		}
	}
	return w.cfg, targets, nil
}

// DeliveryTarget returns one endpoint with its secrets, for an attempt;
// ErrNotFound when it was deleted. A disabled endpoint is returned as such
// and Config.IsEnabled tells whether advanced webhooks are still on. An
// active endpoint comes from the cache of DeliveryTargets; any other is
// read from the store (deleted and disabled endpoints are rare, and their
// messages are cancelled on the first look).
func (s *Service) DeliveryTarget(ctx context.Context, workspaceID, endpointID string) (Config, DeliveryTarget, error) {
	w, err := s.targets.get(ctx, workspaceID, s.loadTargets(workspaceID))
	if err != nil {
		return Config{}, DeliveryTarget{}, err
	}
	for _, t := range w.targets {
		if t.Endpoint.ID == endpointID {
			return w.cfg, t, nil
		}
	}
	rec, err := s.store.EndpointByID(ctx, workspaceID, endpointID)
	if errors.Is(err, ErrNotFound) {
		return w.cfg, DeliveryTarget{}, ErrNotFound
	}
	if err != nil {
		return Config{}, DeliveryTarget{}, fmt.Errorf("read endpoint: %w", err)
	}
	t, err := s.targetOf(rec, s.clock())
	if err != nil {
		return Config{}, DeliveryTarget{}, err
	}
	return w.cfg, t, nil
}

// loadTargets reads what the cache keeps of a workspace: its delivery
// configuration and, when that is enabled, every active endpoint opened.
func (s *Service) loadTargets(workspaceID string) func(context.Context) (workspaceTargets, error) {
	return func(ctx context.Context) (workspaceTargets, error) {
		cfg, err := s.deliveryConfig(ctx, workspaceID)
		if err != nil || !cfg.IsEnabled {
			return workspaceTargets{cfg: cfg}, err
		}
		recs, err := s.store.ActiveEndpoints(ctx, workspaceID)
		if err != nil {
			return workspaceTargets{}, fmt.Errorf("list active endpoints: %w", err)
		}
		now := s.clock()
		w := workspaceTargets{cfg: cfg}
		for _, rec := range recs {
			t, err := s.targetOf(rec, now)
			if err != nil {
				// One unreadable endpoint must not hold up the others.
				slog.ErrorContext(ctx, "webhook: skipping endpoint with unreadable secret",
					"workspaceId", workspaceID, "endpointId", rec.ID, "error", err)
				continue
			}
			w.targets = append(w.targets, t)
			for _, sec := range live(rec.Secrets, now) {
				if sec.ExpiresAt != nil && (w.validUntil.IsZero() || sec.ExpiresAt.Before(w.validUntil)) {
					w.validUntil = *sec.ExpiresAt
				}
			}
		}
		return w, nil
	}
}

// DisableEndpoint disables an endpoint the delivery gave up on (failing
// for days); ErrNotFound when it was deleted.
func (s *Service) DisableEndpoint(ctx context.Context, workspaceID, endpointID, reason string) error {
	defer s.ForgetTargets(workspaceID)
	return s.store.DisableEndpoint(ctx, workspaceID, endpointID, reason, s.clock())
}

// deliveryConfig is the stored configuration with IsEnabled false unless
// advanced webhooks are available and enabled.
func (s *Service) deliveryConfig(ctx context.Context, workspaceID string) (Config, error) {
	cfg, _, err := s.store.WebhookConfig(ctx, workspaceID)
	if errors.Is(err, ErrNotFound) {
		return Config{}, nil
	}
	if err != nil {
		return Config{}, fmt.Errorf("read webhook config: %w", err)
	}
	if !cfg.IsEnabled {
		return cfg, nil
	}
	ok, err := s.available(ctx, workspaceID)
	if err != nil {
		return Config{}, err
	}
	cfg.IsEnabled = ok
	return cfg, nil
}

// targetOf opens the secrets that sign at now, current first.
func (s *Service) targetOf(rec EndpointRecord, now time.Time) (DeliveryTarget, error) {
	if s.box == nil {
		return DeliveryTarget{}, errNoKey
	}
	t := DeliveryTarget{Endpoint: rec.Endpoint}
	for _, sec := range live(rec.Secrets, now) {
		secret, err := s.openSecret(rec.WorkspaceID, rec.ID, sec)
		if err != nil {
			return DeliveryTarget{}, fmt.Errorf("open secret of endpoint %s: %w", rec.ID, err)
		}
		key, err := hmacKey(secret)
		if err != nil {
			return DeliveryTarget{}, fmt.Errorf("endpoint %s: %w", rec.ID, err)
		}
		t.Secrets = append(t.Secrets, key)
	}
	if len(t.Secrets) == 0 {
		return DeliveryTarget{}, fmt.Errorf("endpoint %s has no live secret", rec.ID)
	}
	return t, nil
}
