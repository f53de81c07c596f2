package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-activity/internal/activity"
)

func handleAdd(svc *activity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
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
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
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
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
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
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
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
