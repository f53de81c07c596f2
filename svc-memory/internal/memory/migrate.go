package memory

import (
	"context"
	"fmt"

	"github.com/opencollab/backend/pkg/api"
)

// MoveDocument re-keys the judgments of doc in org to newDoc (document
// migration, orchestrated by svc-content) and re-indexes them so the
// vectors' payload follows. The store marks moved judgments not indexed
// in the same write, so a re-run after a partial run finishes the
// indexing, and a run after completion moves nothing.
func (s *Service) MoveDocument(ctx context.Context, ws, org, doc, newDoc string) (int64, error) {
	if doc == newDoc {
		return 0, api.Errorf(api.InvalidArgument, "newDocumentId must differ from documentId")
	}
	moved, err := s.Store.MoveDocument(ctx, ws, org, doc, newDoc)
	if err != nil {
		return 0, err
	}
	if _, err := s.Sweep(ctx); err != nil {
		return moved, fmt.Errorf("re-index moved judgments: %w", err)
	}
	return moved, nil
}

// HasDocumentData reports whether any judgment of doc in org exists.
func (s *Service) HasDocumentData(ctx context.Context, ws, org, doc string) (bool, error) {
	return s.Store.HasDocumentData(ctx, ws, org, doc)
}
