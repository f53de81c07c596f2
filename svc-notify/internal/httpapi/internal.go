package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-notify/internal/notify"
)

// MigrateRequest is the body data of POST /internal/documents/migrate.
type MigrateRequest struct {
	WorkspaceID    string `json:"workspaceId" validate:"required"`
	OrganizationID string `json:"organizationId" validate:"required"`
	DocumentID     string `json:"documentId" validate:"required"`
	NewDocumentID  string `json:"newDocumentId" validate:"required"`
	MigrationID    string `json:"migrationId" validate:"required"`
}

// MigrateResponse is its result.data.
type MigrateResponse struct {
	Moved int `json:"moved"`
}

// HasDataRequest is the body data of POST /internal/documents/has-data.
type HasDataRequest struct {
	WorkspaceID    string `json:"workspaceId" validate:"required"`
	OrganizationID string `json:"organizationId" validate:"required"`
	DocumentID     string `json:"documentId" validate:"required"`
}

// HasDataResponse is its result.data.
type HasDataResponse struct {
	HasData bool `json:"hasData"`
}

// UserDataRequest is the body data of POST /internal/userdata/notifications.
// After is "" or the next cursor of the previous page; Limit defaults to 100.
type UserDataRequest struct {
	WorkspaceID    string `json:"workspaceId" validate:"required"`
	OrganizationID string `json:"organizationId" validate:"required"`
	UserID         string `json:"userId" validate:"required"`
	After          string `json:"after"`
	Limit          *int   `json:"limit" validate:"min=1,max=100"`
}

// UserDataResponse is its result.data: Next is null on the last page.
type UserDataResponse struct {
	Items []notify.Record `json:"items"`
	Next  *string         `json:"next"`
}

func handleMigrate(svc *notify.Service) gin.HandlerFunc {
	return api.Handle(func(c *gin.Context) (*api.Result, error) {
		var req MigrateRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		moved, err := svc.MigrateDocument(c.Request.Context(), req.WorkspaceID, notify.Migration{
			ID: req.MigrationID, OrganizationID: req.OrganizationID, DocumentID: req.DocumentID, NewDocumentID: req.NewDocumentID,
		})
		if err != nil {
			return nil, err
		}
		return api.OK("Document data moved.", MigrateResponse{Moved: moved}), nil
	})
}

func handleHasData(svc *notify.Service) gin.HandlerFunc {
	return api.Handle(func(c *gin.Context) (*api.Result, error) {
		var req HasDataRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		has, err := svc.DocumentHasData(c.Request.Context(), req.WorkspaceID, req.OrganizationID, req.DocumentID)
		if err != nil {
			return nil, err
		}
		return api.OK("Document data checked.", HasDataResponse{HasData: has}), nil
	})
}

func handleUserData(svc *notify.Service) gin.HandlerFunc {
	return api.Handle(func(c *gin.Context) (*api.Result, error) {
		var req UserDataRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		limit := notify.MaxUserDataPage
		if req.Limit != nil {
			limit = *req.Limit
		}
		items, next, err := svc.UserNotifications(c.Request.Context(), req.WorkspaceID, req.OrganizationID, req.UserID, req.After, limit)
		if err != nil {
			return nil, err
		}
		res := UserDataResponse{Items: items}
		if next != "" {
			res.Next = &next
		}
		return api.OK("User notifications retrieved.", res), nil
	})
}
