package webhook

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// RotateEndpointSecret gives an endpoint a new current secret. The old one
// keeps signing (next to the new one) for RotationOverlap; secrets past
// their overlap are dropped. NOT_FOUND for an unknown endpoint.
func (s *Service) RotateEndpointSecret(ctx context.Context, workspaceID, endpointID string) error {
	if err := s.RequireEnabled(ctx, workspaceID); err != nil {
		return err
	}
	if err := s.requireBox(); err != nil {
		return err
	}
	defer s.ForgetTargets(workspaceID) // sign with the new secret at once here
	for range maxSaveAttempts {
		rec, err := s.store.EndpointByID(ctx, workspaceID, endpointID)
		if errors.Is(err, ErrNotFound) {
			return errEndpointNotFound
		}
		if err != nil {
			return fmt.Errorf("read endpoint: %w", err)
		}
		now := s.clock()
		err = s.store.ReplaceEndpointSecrets(ctx, workspaceID, endpointID, rec.SecretsVersion,
			rotated(rec.Secrets, s.sealSecret(workspaceID, endpointID), now), now)
		switch {
		case errors.Is(err, ErrConflict):
			continue
		case errors.Is(err, ErrNotFound):
			return errEndpointNotFound
		case err != nil:
			return fmt.Errorf("replace endpoint secrets: %w", err)
		}
		return nil
	}
	return errBusy
}

// rotated puts fresh first, gives the current secret an expiry and drops
// the expired ones.
func rotated(secrets []Secret, fresh Secret, now time.Time) []Secret {
	out := []Secret{fresh}
	expires := now.Add(RotationOverlap)
	for _, sec := range live(secrets, now) {
		if sec.ExpiresAt == nil {
			sec.ExpiresAt = &expires
		}
		out = append(out, sec)
	}
	return out
}
