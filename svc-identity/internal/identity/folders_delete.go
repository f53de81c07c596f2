package identity

import (
	"context"
	"errors"

	"github.com/opencollab/backend/pkg/api"
)

// DeleteFolder removes the folder, every folder below it, the documents in
// all of them and the memberships of those folders and documents.
func (s *Service) DeleteFolder(ctx context.Context, ws, orgID, folderID string) error {
	_, err := s.store.GetFolder(ctx, ws, orgID, folderID)
	if errors.Is(err, ErrNotFound) {
		return api.Errorf(api.NotFound, "folder %s does not exist in organization %s", folderID, orgID)
	}
	if err != nil {
		return err
	}
	below, err := s.store.ListDescendantFolders(ctx, ws, orgID, folderID)
	if err != nil {
		return err
	}
	ids := make([]string, 0, len(below)+1)
	for _, f := range below {
		ids = append(ids, f.ID)
	}
	// The folder itself goes last: if the deletion is interrupted, the
	// folder is still there and a retry finds (and removes) the rest.
	if err := s.store.DeleteFolders(ctx, ws, orgID, ids); err != nil {
		return err
	}
	return s.store.DeleteFolders(ctx, ws, orgID, []string{folderID})
}
