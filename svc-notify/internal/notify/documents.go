package notify

import (
	"context"

	"github.com/opencollab/backend/pkg/api"
)

// Migration re-keys a document's data from DocumentID to NewDocumentID.
type Migration struct {
	ID             string
	OrganizationID string
	DocumentID     string
	NewDocumentID  string
}

// MigrateDocument moves the document's notifications and configurations to
// the new document id and returns how many records moved. Running it again
// after a partial run finishes the job; after completion it moves nothing,
// even if the old id has gained data since.
func (s *Service) MigrateDocument(ctx context.Context, ws string, m Migration) (int, error) {
	if m.DocumentID == m.NewDocumentID {
		return 0, api.Errorf(api.InvalidArgument, "newDocumentId must differ from documentId")
	}
	done, ok, err := s.store.FinishedMigration(ctx, ws, m.ID)
	if err != nil {
		return 0, err
	}
	if ok {
		if done != m {
			return 0, api.Errorf(api.InvalidArgument, "migrationId %s already moved another document", m.ID)
		}
		return 0, nil
	}
	moved, err := s.store.MoveDocument(ctx, ws, m.OrganizationID, m.DocumentID, m.NewDocumentID)
	if err != nil {
		return 0, err
	}
	if err := s.store.RecordMigration(ctx, ws, m, moved, s.now().UnixMilli()); err != nil {
		return 0, err
	}
	return moved, nil
}

// DocumentHasData reports whether any notification or configuration names
// the document.
func (s *Service) DocumentHasData(ctx context.Context, ws, orgID, docID string) (bool, error) {
	return s.store.DocumentHasData(ctx, ws, orgID, docID)
}
