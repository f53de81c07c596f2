package activity

import (
	"context"

	"github.com/opencollab/backend/pkg/api"
)

// MoveDocument re-keys every record of doc in org to newDoc (document
// migration, orchestrated by svc-content). Moving is an update keyed on the
// old id, so a re-run finishes a partial run and a run after completion
// moves nothing.
func (s *Service) MoveDocument(ctx context.Context, ws, org, doc, newDoc string) (int64, error) {
	if doc == newDoc {
		return 0, api.Errorf(api.InvalidArgument, "newDocumentId must differ from documentId")
	}
	return s.store.MoveDocument(ctx, ws, org, doc, newDoc)
}

// HasDocumentData reports whether any record of doc in org exists.
func (s *Service) HasDocumentData(ctx context.Context, ws, org, doc string) (bool, error) {
	return s.store.HasDocumentData(ctx, ws, org, doc)
}
