package webhook

import (
	"context"
	"errors"
	"fmt"
)

// UpdateEndpoint applies a partial update and returns the endpoint as
// updated; NOT_FOUND for an unknown endpoint.
func (s *Service) UpdateEndpoint(ctx context.Context, workspaceID, endpointID string, ch EndpointChanges) (Endpoint, error) {
	if err := s.RequireEnabled(ctx, workspaceID); err != nil {
		return Endpoint{}, err
	}
	ch, err := validateChanges(ch)
	if err != nil {
		return Endpoint{}, err
	}
	if ch.URL != nil {
		if err := s.checkTarget(*ch.URL); err != nil {
			return Endpoint{}, err
		}
	}
	if err := s.requireBox(); err != nil {
		return Endpoint{}, err
	}
	defer s.ForgetTargets(workspaceID)
	e, err := s.store.UpdateEndpoint(ctx, workspaceID, endpointID, ch, s.clock())
	if errors.Is(err, ErrNotFound) {
		return Endpoint{}, errEndpointNotFound
	}
	if err != nil {
		return Endpoint{}, fmt.Errorf("update endpoint: %w", err)
	}
	return e, nil
}
