package httpapi

import (
	"context"

	"github.com/opencollab/backend/pkg/docmigrate"
	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// documentOwner serves the document migration contract (pkg/docmigrate)
// svc-content orchestrates: identity moves the document record itself, by
// migration id, last of all owners.
type documentOwner struct{ ids *identity.Service }

func (o documentOwner) MigrateDocument(ctx context.Context, m docmigrate.Move) (int64, error) {
	return o.ids.MigrateDocument(ctx, m.WorkspaceID, identity.DocumentMigration{
		OrganizationID: m.OrganizationID, DocumentID: m.DocumentID,
		NewDocumentID: m.NewDocumentID, MigrationID: m.MigrationID,
	})
}

func (o documentOwner) DocumentHasData(ctx context.Context, d docmigrate.Document) (bool, error) {
	return o.ids.DocumentHasData(ctx, d.WorkspaceID, d.OrganizationID, d.DocumentID)
}
