package crdt

import (
	"context"

	"github.com/opencollab/backend/pkg/api"
)

// MigrateDocument re-keys the editor data of oldDocID to newDocID
// (document migration, orchestrated by internal/migration). It is an
// update keyed on the old id, so a re-run finishes a partial run and a run
// after completion moves nothing.
func (s *Service) MigrateDocument(ctx context.Context, workspaceID, orgID, oldDocID, newDocID string) (int64, error) {
	if oldDocID == newDocID {
		return 0, api.Errorf(api.InvalidArgument, "newDocumentId must differ from documentId")
	}
	defer s.editors.forget() // the moved editors' keys changed
	return s.store.MoveDocument(ctx, workspaceID, orgID, oldDocID, newDocID)
}

// HasData reports whether any editor of the document has data.
func (s *Service) HasData(ctx context.Context, workspaceID, orgID, docID string) (bool, error) {
	return s.store.HasDocument(ctx, workspaceID, orgID, docID)
}
