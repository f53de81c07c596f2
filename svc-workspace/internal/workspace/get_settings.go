package workspace

import (
	"context"
	"errors"
	"fmt"

	"github.com/opencollab/backend/pkg/api"
)

// Settings returns the effective feature switches of workspaceID for other
// services (their feature checks); NOT_FOUND for an unknown workspace.
func (s *Service) Settings(ctx context.Context, workspaceID string) (FeatureSet, error) {
	w, err := s.store.WorkspaceByID(ctx, workspaceID)
	if errors.Is(err, ErrNotFound) {
		return FeatureSet{}, api.Errorf(api.NotFound, "workspace not found")
	}
	if err != nil {
		return FeatureSet{}, fmt.Errorf("find workspace: %w", err)
	}
	return featureSetOf(w), nil
}
