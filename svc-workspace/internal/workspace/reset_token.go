package workspace

import (
	"context"
	"errors"
	"fmt"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
)

// ResetToken revokes authToken of apiKey. Revoking the last token is
// allowed; the workspace then has none until one is created.
func (s *Service) ResetToken(ctx context.Context, apiKey, authToken string) error {
	w, err := s.workspaceOf(ctx, apiKey)
	if err != nil {
		return err
	}
	revokeErr := s.store.RevokeToken(ctx, w.ID, internalauth.HashToken(authToken))
	if revokeErr != nil && !errors.Is(revokeErr, ErrNotFound) {
		return fmt.Errorf("revoke token: %w", revokeErr)
	}
	// Invalidate even when the token was already gone: an operator retrying
	// after a failed invalidation gets NOT_FOUND, and the stale cache entry
	// must not outlive that retry.
	if err := s.invalidate(ctx, apiKey); err != nil {
		return err
	}
	if revokeErr != nil {
		return api.Errorf(api.NotFound, "auth token is not a live token of this API key")
	}
	return nil
}
