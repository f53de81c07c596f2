package workspace

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/opencollab/backend/pkg/api"
)

// Store errors. The store maps driver errors onto these so the operations
// decide what the client sees.
var (
	ErrNotFound  = errors.New("not found")
	ErrDuplicate = errors.New("duplicate")
	ErrConflict  = errors.New("changed concurrently")
)

// errUnknownAPIKey is what an operator or the gateway sees for a key that
// names no workspace.
var errUnknownAPIKey = api.Errorf(api.NotFound, "API key not found")

// workspaceOf resolves apiKey, turning an unknown key into NOT_FOUND.
func (s *Service) workspaceOf(ctx context.Context, apiKey string) (Workspace, error) {
	w, err := s.store.WorkspaceByAPIKey(ctx, apiKey)
	if errors.Is(err, ErrNotFound) {
		return Workspace{}, errUnknownAPIKey
	}
	if err != nil {
		return Workspace{}, fmt.Errorf("find workspace by API key: %w", err)
	}
	return w, nil
}

// invalidate drops the gateway's cached lookup of apiKey. A failure goes back
// to the operator as UNAVAILABLE so they retry: the database change is
// already saved and doing it again is harmless.
func (s *Service) invalidate(ctx context.Context, apiKey string) error {
	if err := s.cache.Invalidate(ctx, apiKey); err != nil {
		slog.ErrorContext(ctx, "invalidate cached credentials", "error", err)
		return api.Errorf(api.Unavailable, "the change is saved but cached credentials could not be invalidated; retry the request")
	}
	return nil
}

func isDuplicate(err error) bool { return errors.Is(err, ErrDuplicate) }
