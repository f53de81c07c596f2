package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// The internal document routes are called by svc-content, which
// orchestrates document migrations; the workspace is in the body since the
// caller is a service, not a workspace.

type migrateDocumentRequest struct {
	WorkspaceID    string `json:"workspaceId" validate:"required"`
	OrganizationID string `json:"organizationId" validate:"required"`
	DocumentID     string `json:"documentId" validate:"required"`
	NewDocumentID  string `json:"newDocumentId" validate:"required"`
	MigrationID    string `json:"migrationId" validate:"required"`
}

type documentHasDataRequest struct {
	WorkspaceID    string `json:"workspaceId" validate:"required"`
	OrganizationID string `json:"organizationId" validate:"required"`
	DocumentID     string `json:"documentId" validate:"required"`
}

func handleMigrateDocument(ids *identity.Service) gin.HandlerFunc {
	return api.Handle(func(c *gin.Context) (*api.Result, error) {
		var req migrateDocumentRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		moved, err := ids.MigrateDocument(c.Request.Context(), req.WorkspaceID, identity.DocumentMigration{
			OrganizationID: req.OrganizationID, DocumentID: req.DocumentID,
			NewDocumentID: req.NewDocumentID, MigrationID: req.MigrationID,
		})
		if err != nil {
			return nil, err
		}
		return api.OK("Document migrated.", map[string]int64{"moved": moved}), nil
	})
}

func handleDocumentHasData(ids *identity.Service) gin.HandlerFunc {
	return api.Handle(func(c *gin.Context) (*api.Result, error) {
		var req documentHasDataRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		found, err := ids.DocumentHasData(c.Request.Context(), req.WorkspaceID, req.OrganizationID, req.DocumentID)
		if err != nil {
			return nil, err
		}
		return api.OK("Document data checked.", map[string]bool{"hasData": found}), nil
	})
}
