package svcnotify_test

import (
	"testing"

	"github.com/opencollab/backend/pkg/docmigrate"
	"github.com/opencollab/backend/pkg/docmigrate/docmigratetest"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/service/servicetest"
	svcnotify "github.com/opencollab/backend/svc-notify"
)

func TestDocumentMigrationContract(t *testing.T) {
	t.Parallel()
	docmigratetest.Run(t, func(t *testing.T) docmigratetest.Owner {
		e := newEnv(t, svcnotify.Config{})
		return docmigratetest.Owner{Handler: e.H, Secret: servicetest.Secret, Seed: func(t *testing.T, d docmigrate.Document) {
			e.add(internalauth.Workspace(d.WorkspaceID), note("n-"+d.OrganizationID+"-"+d.DocumentID,
				set("organizationId", d.OrganizationID), set("documentId", d.DocumentID)))
		}}
	})
}
