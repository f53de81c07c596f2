package httpapi_test

import (
	"testing"

	"github.com/opencollab/backend/pkg/docmigrate"
	"github.com/opencollab/backend/pkg/docmigrate/docmigratetest"
)

// TestDocumentMigrationContract runs the owners' suite on identity's
// document records and memberships, the last step of every migration.
func TestDocumentMigrationContract(t *testing.T) {
	t.Parallel()
	docmigratetest.Run(t, func(t *testing.T) docmigratetest.Owner {
		e := newEnv(t)
		return docmigratetest.Owner{Handler: e.h, Secret: "test-internal-secret", Seed: func(t *testing.T, d docmigrate.Document) {
			e.addUsers(d.WorkspaceID, map[string]any{"organizationId": d.OrganizationID, "documentId": d.DocumentID}, "u1")
		}}
	})
}
