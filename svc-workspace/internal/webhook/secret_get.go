package webhook

import (
	"context"
	"errors"
	"fmt"
)

// EndpointSecret returns the current signing secret ("whsec_…") of an
// endpoint; NOT_FOUND for an unknown endpoint. No other operation returns
// it, and it is never logged.
func (s *Service) EndpointSecret(ctx context.Context, workspaceID, endpointID string) (string, error) {
	if err := s.RequireEnabled(ctx, workspaceID); err != nil {
		return "", err
	}
	if err := s.requireBox(); err != nil {
		return "", err
	}
	rec, err := s.store.EndpointByID(ctx, workspaceID, endpointID)
	if errors.Is(err, ErrNotFound) {
		return "", errEndpointNotFound
	}
	if err != nil {
		return "", fmt.Errorf("read endpoint: %w", err)
	}
	cur, ok := current(rec.Secrets)
	if !ok {
		return "", fmt.Errorf("endpoint %s has no current secret", endpointID)
	}
	secret, err := s.openSecret(workspaceID, endpointID, cur)
	if err != nil {
		return "", fmt.Errorf("open secret of endpoint %s: %w", endpointID, err)
	}
	return secret, nil
}
