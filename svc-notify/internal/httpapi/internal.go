package httpapi

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/docmigrate"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-notify/internal/notify"
)

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

// documentOwner serves the document migration contract; notify's moves
// are remembered by migration id, so a re-run after completion moves
// nothing even though they are not keyed updates.
type documentOwner struct{ svc *notify.Service }

func (o documentOwner) MigrateDocument(ctx context.Context, m docmigrate.Move) (int64, error) {
	moved, err := o.svc.MigrateDocument(ctx, m.WorkspaceID, notify.Migration{
		ID: m.MigrationID, OrganizationID: m.OrganizationID, DocumentID: m.DocumentID, NewDocumentID: m.NewDocumentID,
	})
	return int64(moved), err
}

func (o documentOwner) DocumentHasData(ctx context.Context, d docmigrate.Document) (bool, error) {
	return o.svc.DocumentHasData(ctx, d.WorkspaceID, d.OrganizationID, d.DocumentID)
}

func handleUserData(svc *notify.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
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
