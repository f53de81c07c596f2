package svcmemory_test

import (
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/docmigrate"
	"github.com/opencollab/backend/pkg/docmigrate/docmigratetest"
	"github.com/opencollab/backend/pkg/service/servicetest"
	svcmemory "github.com/opencollab/backend/svc-memory"
)

func TestDocumentMigrationContract(t *testing.T) {
	t.Parallel()
	docmigratetest.Run(t, func(t *testing.T) docmigratetest.Owner {
		e := newEnv(t, svcmemory.Config{})
		indexed := map[string]int64{} // judgments per workspace so far
		return docmigratetest.Owner{Handler: e.H, Secret: servicetest.Secret, Seed: func(t *testing.T, d docmigrate.Document) {
			indexed[d.WorkspaceID]++
			id := d.OrganizationID + "-" + d.DocumentID
			e.ingest(d.WorkspaceID, indexed[d.WorkspaceID],
				review(id, "comment_annotation.reject", d.OrganizationID, d.DocumentID, "ann-"+id, "u1", "Citation missing", time.Now()))
		}}
	})
}
