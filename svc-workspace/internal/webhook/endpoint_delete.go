package webhook

import (
	"context"
	"errors"
	"fmt"
)

// DeleteEndpoint removes an endpoint for good: deliveries stop and its
// secrets are gone. NOT_FOUND for an unknown endpoint.
func (s *Service) DeleteEndpoint(ctx context.Context, workspaceID, endpointID string) error {
	if err := s.RequireEnabled(ctx, workspaceID); err != nil {
		return err
	}
	if err := s.requireBox(); err != nil {
		return err
	}
	defer s.ForgetTargets(workspaceID)
	err := s.store.DeleteEndpoint(ctx, workspaceID, endpointID)
	if errors.Is(err, ErrNotFound) {
		return errEndpointNotFound
	}
	if err != nil {
		return fmt.Errorf("delete endpoint: %w", err)
	}
	return nil
}
