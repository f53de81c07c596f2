package httpapi

import (
	"log/slog"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/svc-activity/internal/activity"
)

func handleAdd(svc *activity.Service) gin.HandlerFunc {
	return api.Handle(func(c *gin.Context) (*api.Result, error) {
		var req addRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		in := make([]activity.NewActivity, len(req.Activities))
		for i, a := range req.Activities {
			in[i] = a.domain()
		}
		ctx := c.Request.Context()
		if err := svc.Add(ctx, internalauth.WorkspaceID(ctx), req.OrganizationID, req.DocumentID, in); err != nil {
			return nil, err
		}
		const msg = "Activities added."
		return api.OK(msg, addResponse{Success: true, Message: msg}), nil
	})
}

func handleUpdate(svc *activity.Service) gin.HandlerFunc {
	return api.Handle(func(c *gin.Context) (*api.Result, error) {
		var req updateRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		patches := make([]activity.Patch, len(req.Activities))
		for i, p := range req.Activities {
			patches[i] = p.domain()
		}
		ctx := c.Request.Context()
		results, err := svc.Update(ctx, internalauth.WorkspaceID(ctx), req.OrganizationID, patches)
		if err != nil {
			return nil, err
		}
		return api.OK("Activities updated.", results), nil
	})
}

func handleGet(svc *activity.Service) gin.HandlerFunc {
	return api.Handle(func(c *gin.Context) (*api.Result, error) {
		var req getRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		ctx := c.Request.Context()
		page, err := svc.Get(ctx, internalauth.WorkspaceID(ctx), req.domain())
		if err != nil {
			return nil, err
		}
		var next any // null on the last page
		if page.NextPageToken != "" {
			next = page.NextPageToken
		}
		return api.OK("Activities retrieved.", activity.Views(page.Records)).With("pageToken", next), nil
	})
}

func handleDelete(svc *activity.Service) gin.HandlerFunc {
	return api.Handle(func(c *gin.Context) (*api.Result, error) {
		var req deleteRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		ctx := c.Request.Context()
		results, err := svc.Delete(ctx, internalauth.WorkspaceID(ctx), activity.Selection{
			OrganizationID: req.OrganizationID, DocumentID: req.DocumentID,
			TargetEntityID: req.TargetEntityID, IDs: req.ActivityIDs,
		})
		if err != nil {
			return nil, err
		}
		return api.OK("Activities deleted.", results), nil
	})
}

func handleMigrate(svc *activity.Service) gin.HandlerFunc {
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
		slog.InfoContext(ctx, "document activities migrated", "workspaceId", req.WorkspaceID,
			"migrationId", req.MigrationID, "documentId", req.DocumentID, "newDocumentId", req.NewDocumentID, "moved", moved)
		return api.OK("Document activities migrated.", MigrateResponse{Moved: moved}), nil
	})
}

func handleHasData(svc *activity.Service) gin.HandlerFunc {
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
