package workspace

import (
	"context"
	"fmt"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
)

// CreateWorkspace creates a workspace with a new API key and a first auth
// token.
func (s *Service) CreateWorkspace(ctx context.Context, name string) (Credentials, error) {
	w := Workspace{ID: NewWorkspaceID(), APIKey: NewAPIKey(), Name: name, CreatedAt: s.now().UTC()}
	token := NewAuthToken()
	// The token goes in first: if the workspace insert then fails, the
	// token belongs to a workspace no API key leads to and stays inert.
	if err := s.store.AddToken(ctx, w.ID, internalauth.HashToken(token), w.CreatedAt); err != nil {
		return Credentials{}, fmt.Errorf("add first token: %w", err)
	}
	if err := s.store.InsertWorkspace(ctx, w); err != nil {
		if isDuplicate(err) {
			// Random ids and keys colliding is as good as impossible.
			return Credentials{}, api.Errorf(api.Internal, "could not allocate a unique workspace; retry")
		}
		return Credentials{}, fmt.Errorf("insert workspace: %w", err)
	}
	return Credentials{WorkspaceID: w.ID, APIKey: w.APIKey, AuthToken: token}, nil
}
