package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-content/internal/locations"
	"github.com/opencollab/backend/svc-content/internal/migration"
)

// Handlers of the document operations: locations and migration.

type locationsUpdateRequest struct {
	APIKey         string           `json:"apiKey" validate:"required,max=256"`
	AuthToken      string           `json:"authToken" validate:"required,max=256"`
	OrganizationID string           `json:"organizationId" validate:"max=256"`
	DocumentID     string           `json:"documentId" validate:"required,max=256"`
	Migrate        *locationsChange `json:"migrate" validate:"required"`
	Merge          bool             `json:"merge"`
}

type locationsChange struct {
	OldLocation map[string]any `json:"oldLocation" validate:"required"`
	NewLocation map[string]any `json:"newLocation" validate:"required"`
}

func handleLocationsUpdate(svc *locations.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req locationsUpdateRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		ctx := c.Request.Context()
		err := svc.Update(ctx, locations.Update{
			WorkspaceID: internalauth.WorkspaceID(ctx), APIKey: req.APIKey, AuthToken: req.AuthToken,
			OrganizationID: req.OrganizationID, DocumentID: req.DocumentID,
			OldLocation: req.Migrate.OldLocation, NewLocation: req.Migrate.NewLocation, Merge: req.Merge,
		})
		if err != nil {
			return nil, err
		}
		return api.OK("Location updated.", nil), nil
	})
}

type migrationStartRequest struct {
	OrganizationID string `json:"organizationId" validate:"required,max=256"`
	DocumentID     string `json:"documentId" validate:"required,max=256"`
	NewDocumentID  string `json:"newDocumentId" validate:"required,max=256"`
}

type migrationStartResponse struct {
	MigrationID string `json:"migrationId"`
}

func handleMigrationStart(svc *migration.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req migrationStartRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		ctx := c.Request.Context()
		id, err := svc.Start(ctx, migration.StartRequest{
			WorkspaceID: internalauth.WorkspaceID(ctx), OrganizationID: req.OrganizationID,
			DocumentID: req.DocumentID, NewDocumentID: req.NewDocumentID,
		})
		if err != nil {
			return nil, err
		}
		return api.OK("Migration started.", migrationStartResponse{MigrationID: id}), nil
	})
}

type migrationStatusRequest struct {
	OrganizationID string `json:"organizationId" validate:"required,max=256"`
	MigrationID    string `json:"migrationId" validate:"required,max=256"`
}

func handleMigrationStatus(svc *migration.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req migrationStatusRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		ctx := c.Request.Context()
		v, err := svc.Status(ctx, internalauth.WorkspaceID(ctx), req.OrganizationID, req.MigrationID)
		if err != nil {
			return nil, err
		}
		return api.OK("Migration status retrieved.", v), nil
	})
}
