package webhook

import (
	"context"
	"errors"
	"fmt"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/features"
)

// Client-facing refusals.
var (
	errNotAvailable = api.Errorf(api.FailedPrecondition,
		"advanced webhooks are not available for this workspace; an operator can enable them")
	errNotEnabled = api.Errorf(api.FailedPrecondition,
		"advanced webhooks are disabled for this workspace; enable them with /v2/workspace/advancedwebhookconfig/update and isEnabled: true")
	errNoKey = api.Errorf(api.FailedPrecondition,
		"DATA_ENCRYPTION_KEY is not configured")
	errEndpointNotFound = api.Errorf(api.NotFound, "webhook endpoint not found")
)

// available reports whether advanced webhooks are available to the
// workspace: the operator's switch, on unless switched off.
func (s *Service) available(ctx context.Context, workspaceID string) (bool, error) {
	on, set, err := s.switches.FeatureSwitch(ctx, workspaceID, features.AdvancedWebhooks)
	if err != nil {
		return false, fmt.Errorf("read feature switch: %w", err)
	}
	return on || !set, nil
}

// requireAvailable is FAILED_PRECONDITION when the switch is off.
func (s *Service) requireAvailable(ctx context.Context, workspaceID string) error {
	ok, err := s.available(ctx, workspaceID)
	if err != nil {
		return err
	}
	if !ok {
		return errNotAvailable
	}
	return nil
}

// RequireEnabled returns FAILED_PRECONDITION unless advanced webhooks are
// available to the workspace and configured with isEnabled true. Every
// endpoint operation (and the delivery attempts read) starts with it.
func (s *Service) RequireEnabled(ctx context.Context, workspaceID string) error {
	if err := s.requireAvailable(ctx, workspaceID); err != nil {
		return err
	}
	cfg, _, err := s.store.WebhookConfig(ctx, workspaceID)
	if errors.Is(err, ErrNotFound) {
		return errNotEnabled
	}
	if err != nil {
		return fmt.Errorf("read webhook config: %w", err)
	}
	if !cfg.IsEnabled {
		return errNotEnabled
	}
	return nil
}

// requireBox is FAILED_PRECONDITION when secrets cannot be sealed.
func (s *Service) requireBox() error {
	if s.box == nil {
		return errNoKey
	}
	return nil
}

// maxSaveAttempts bounds the read-modify-write retries of a configuration
// update racing other updates of the same workspace.
const maxSaveAttempts = 5

var errBusy = api.Errorf(api.Unavailable, "the configuration is being changed concurrently; retry the request")
