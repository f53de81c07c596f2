package workspace

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/opencollab/backend/pkg/internalauth"
)

// CreateToken issues a further live auth token for apiKey.
func (s *Service) CreateToken(ctx context.Context, apiKey string) (Credentials, error) {
	w, err := s.workspaceOf(ctx, apiKey)
	if err != nil {
		return Credentials{}, err
	}
	token := NewAuthToken()
	hash := internalauth.HashToken(token)
	if err := s.store.AddToken(ctx, w.ID, hash, s.now().UTC()); err != nil {
		return Credentials{}, fmt.Errorf("add token: %w", err)
	}
	if err := s.invalidate(ctx, apiKey); err != nil {
		// The operator never sees this token, so take it back rather than
		// leave a live secret nobody holds; the retry issues a new one.
		if rbErr := s.store.RevokeToken(ctx, w.ID, hash); rbErr != nil {
			slog.WarnContext(ctx, "revoke undelivered token", "workspaceId", w.ID, "error", rbErr)
		}
		return Credentials{}, err
	}
	return Credentials{WorkspaceID: w.ID, APIKey: apiKey, AuthToken: token}, nil
}
