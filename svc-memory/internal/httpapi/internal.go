package httpapi

import (
	"log/slog"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-memory/internal/memory"
)

// MigrateRequest is the body data of POST /internal/documents/migrate.
type MigrateRequest struct {
	WorkspaceID    string `json:"workspaceId" validate:"required"`
	OrganizationID string `json:"organizationId" validate:"required"`
	DocumentID     string `json:"documentId" validate:"required"`
	NewDocumentID  string `json:"newDocumentId" validate:"required"`
	MigrationID    string `json:"migrationId"`
}

// MigrateResponse is result.data of /internal/documents/migrate.
type MigrateResponse struct {
	Moved int64 `json:"moved"`
}

// HasDataRequest is the body data of POST /internal/documents/has-data.
type HasDataRequest struct {
	WorkspaceID    string `json:"workspaceId" validate:"required"`
	OrganizationID string `json:"organizationId" validate:"required"`
	DocumentID     string `json:"documentId" validate:"required"`
}

// HasDataResponse is result.data of /internal/documents/has-data.
type HasDataResponse struct {
	HasData bool `json:"hasData"`
}

func handleMigrate(svc *memory.Service) gin.HandlerFunc {
	return api.Handle(func(c *gin.Context) (*api.Result, error) {
		var req MigrateRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		ctx := c.Request.Context()
		moved, err := svc.MoveDocument(ctx, req.WorkspaceID, req.OrganizationID, req.DocumentID, req.NewDocumentID)
		if err != nil {
			return nil, err
		}
		slog.InfoContext(ctx, "document judgments migrated", "workspaceId", req.WorkspaceID,
			"migrationId", req.MigrationID, "documentId", req.DocumentID, "newDocumentId", req.NewDocumentID, "moved", moved)
		return api.OK("Document judgments migrated.", MigrateResponse{Moved: moved}), nil
	})
}

func handleHasData(svc *memory.Service) gin.HandlerFunc {
	return api.Handle(func(c *gin.Context) (*api.Result, error) {
		var req HasDataRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		has, err := svc.HasDocumentData(c.Request.Context(), req.WorkspaceID, req.OrganizationID, req.DocumentID)
		if err != nil {
			return nil, err
		}
		return api.OK("Document data checked.", HasDataResponse{HasData: has}), nil
	})
}
