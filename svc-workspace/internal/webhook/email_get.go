package webhook

import (
	"context"
	"errors"
	"fmt"
)

// EmailConfig returns the workspace's email service configuration, the
// defaults when it never configured one. The API key is masked.
func (s *Service) EmailConfig(ctx context.Context, workspaceID string) (EmailConfig, error) {
	c, _, err := s.store.EmailConfig(ctx, workspaceID)
	if errors.Is(err, ErrNotFound) {
		return defaultEmailConfig(), nil
	}
	if err != nil {
		return EmailConfig{}, fmt.Errorf("read email config: %w", err)
	}
	return c, nil
}
