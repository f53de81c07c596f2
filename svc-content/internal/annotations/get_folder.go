package annotations

import (
	"context"
	"slices"

	"github.com/opencollab/backend/pkg/api"
)

// FolderLister says which documents a folder holds: svc-identity's folders
// (pkg/folderdocs.Client). It fails rather than answer for want of one
// (not configured, unreachable: UNAVAILABLE).
type FolderLister interface {
	Documents(ctx context.Context, ws, org, folder string) (documentIDs []string, folderFound bool, err error)
}

// WithFolders sets who lists a folder's documents for get's folderId;
// without it such requests answer UNAVAILABLE.
func (s *Service) WithFolders(f FolderLister) *Service {
	s.folders = f
	return s
}

// inFolder narrows q to the documents of folder (and of q's own document
// filter, when it has one: the filters AND-combine). It reports false when
// no document is left, so the query matches nothing: an empty document
// list would mean every document.
func (s *Service) inFolder(ctx context.Context, q *Query, folder string) (bool, error) {
	if s.folders == nil {
		return false, api.Errorf(api.Unavailable, "folders cannot be read: svc-identity is not configured")
	}
	docs, _, err := s.folders.Documents(ctx, q.WorkspaceID, q.OrganizationID, folder)
	if err != nil {
		return false, err
	}
	if len(q.DocumentIDs) > 0 {
		docs = slices.DeleteFunc(docs, func(id string) bool { return !slices.Contains(q.DocumentIDs, id) })
	}
	q.DocumentIDs = docs
	return len(docs) > 0, nil
}
