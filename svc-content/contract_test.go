package svccontent_test

import (
	"testing"

	"github.com/opencollab/backend/pkg/docmigrate"
	"github.com/opencollab/backend/pkg/docmigrate/docmigratetest"
	"github.com/opencollab/backend/pkg/internalauth"
)

// TestDocumentMigrationContract runs the owners' suite on content's own
// data (CRDT editors and annotations): it is the first step of every
// migration content runs.
func TestDocumentMigrationContract(t *testing.T) {
	t.Parallel()
	docmigratetest.Run(t, func(t *testing.T) docmigratetest.Owner {
		e := newEnv(t, nil)
		return docmigratetest.Owner{Handler: e.H, Secret: secret, Seed: func(t *testing.T, d docmigrate.Document) {
			e.OK(internalauth.Workspace(d.WorkspaceID), "/v2/crdt/add", map[string]any{"organizationId": d.OrganizationID,
				"documentId": d.DocumentID, "editorId": "e1", "type": "text", "data": "hello"}, nil)
		}}
	})
}
