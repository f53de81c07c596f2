package identity

import (
	"context"
	"errors"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/folderdocs"
)

// FolderDocuments is which documents one folder holds: the answer other
// services get when a caller filters by folder (commentannotations/get's
// folderId).
type FolderDocuments struct {
	// DocumentIDs are the folder's own documents (not its subfolders'),
	// sorted by id.
	DocumentIDs []string
	// FolderFound is false when the folder does not exist in the
	// organization; it holds no documents then.
	FolderFound bool
}

// maxFolderDocuments is folderdocs.MaxDocuments; a variable so tests can
// reach the bound without writing ten thousand documents.
var maxFolderDocuments = folderdocs.MaxDocuments

// DocumentsInFolder lists the documents of folder, as documents/get with
// folderId does. A folder holding more than folderdocs.MaxDocuments is
// FAILED_PRECONDITION: the caller must name the documents.
func (s *Service) DocumentsInFolder(ctx context.Context, ws, orgID, folderID string) (FolderDocuments, error) {
	if _, err := s.store.GetFolder(ctx, ws, orgID, folderID); errors.Is(err, ErrNotFound) {
		return FolderDocuments{DocumentIDs: []string{}}, nil
	} else if err != nil {
		return FolderDocuments{}, err
	}
	ids, err := s.store.ListDocumentIDs(ctx, ws, DocumentQuery{OrganizationID: orgID, FolderID: &folderID, Limit: maxFolderDocuments + 1})
	if err != nil {
		return FolderDocuments{}, err
	}
	if len(ids) > maxFolderDocuments {
		return FolderDocuments{}, api.Errorf(api.FailedPrecondition,
			"folder %s holds more than %d documents; filter by documentIds instead", folderID, maxFolderDocuments)
	}
	return FolderDocuments{DocumentIDs: ids, FolderFound: true}, nil
}
