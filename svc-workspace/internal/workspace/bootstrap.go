package workspace

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/opencollab/backend/pkg/internalauth"
)

// bootstrapName names the workspace made from configuration.
const bootstrapName = "bootstrap"

// Bootstrap makes sure the workspace of apiKey exists and authToken is one
// of its live tokens. It is idempotent across restarts and safe when several
// replicas run it at once: the unique API key index decides which insert
// wins, and the loser reads the winner's workspace.
func (s *Service) Bootstrap(ctx context.Context, apiKey, authToken string) error {
	if strings.TrimSpace(apiKey) == "" || strings.TrimSpace(authToken) == "" {
		return errors.New("bootstrap: API key and auth token must not be blank")
	}
	w, err := s.ensureWorkspace(ctx, apiKey)
	if err != nil {
		return fmt.Errorf("bootstrap workspace: %w", err)
	}
	if err := s.store.AddToken(ctx, w.ID, internalauth.HashToken(authToken), s.now().UTC()); err != nil {
		return fmt.Errorf("bootstrap token: %w", err)
	}
	// A gateway may have cached this key before the token was (re)added.
	if err := s.cache.Invalidate(ctx, apiKey); err != nil {
		return fmt.Errorf("bootstrap: invalidate cached credentials: %w", err)
	}
	return nil
}

func (s *Service) ensureWorkspace(ctx context.Context, apiKey string) (Workspace, error) {
	w, err := s.store.WorkspaceByAPIKey(ctx, apiKey)
	if err == nil || !errors.Is(err, ErrNotFound) {
		return w, err
	}
	w = Workspace{ID: NewWorkspaceID(), APIKey: apiKey, Name: bootstrapName, CreatedAt: s.now().UTC()}
	err = s.store.InsertWorkspace(ctx, w)
	if errors.Is(err, ErrDuplicate) {
		// Another replica inserted it first.
		return s.store.WorkspaceByAPIKey(ctx, apiKey)
	}
	return w, err
}
