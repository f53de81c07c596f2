package annotations

import (
	"context"
)

// returns how many moved. Each annotation moves in one atomic update that
// also bumps its version, so a concurrent comment write retries on the moved
// copy instead of writing the old document id back. Re-running after a
// partial run moves the rest; after completion it moves 0. The user index
// holds no document ids, so only annotations and the counter move.
func (s *Service) MigrateDocument(ctx context.Context, workspaceID, orgID, oldDocID, newDocID string) (int64, error) {
	if workspaceID == "" || oldDocID == "" || newDocID == "" {
		return 0, invalid("workspaceId, documentId and newDocumentId are required")
	}
	if oldDocID == newDocID {
		return 0, nil
	}
	// The counter first: annotations added to the new id after the move
	// must not reuse numbers of the moved ones.
	if err := s.counters.Move(ctx, Scope{workspaceID, orgID, oldDocID}, newDocID); err != nil {
		return 0, err
	}
	return s.annotations.MoveDocument(ctx, Scope{workspaceID, orgID, oldDocID}.query(), newDocID)
}

// HasData reports whether the document has any annotation.
func (s *Service) HasData(ctx context.Context, workspaceID, orgID, docID string) (bool, error) {
	return s.annotations.Any(ctx, Scope{workspaceID, orgID, docID}.query())
}
