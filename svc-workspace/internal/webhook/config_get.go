package webhook

import (
	"context"
	"errors"
	"fmt"
)

// Config returns the advanced webhook configuration, all defaults when
// never configured; FAILED_PRECONDITION when advanced webhooks are not
// available to the workspace.
func (s *Service) Config(ctx context.Context, workspaceID string) (Config, error) {
	if err := s.requireAvailable(ctx, workspaceID); err != nil {
		return Config{}, err
	}
	c, _, err := s.store.WebhookConfig(ctx, workspaceID)
	if errors.Is(err, ErrNotFound) {
		return Config{}, nil
	}
	if err != nil {
		return Config{}, fmt.Errorf("read webhook config: %w", err)
	}
	return c, nil
}
