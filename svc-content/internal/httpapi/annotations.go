package httpapi

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-content/internal/annotations"
)

// annotationOp is the handler of an operation whose result is its data:
// decode the body into Req, call op for the caller's workspace, answer.
func annotationOp[Req, Out any](op func(context.Context, string, Req) (Out, error), message string) web.HandlerFunc {
	return func(c *gin.Context) (*api.Result, error) {
		var req Req
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		ws, err := annotationWorkspace(c)
		if err != nil {
			return nil, err
		}
		out, err := op(c.Request.Context(), ws, req)
		if err != nil {
			return nil, err
		}
		return api.OK(message, out), nil
	}
}

func handleAnnotationsGet(svc *annotations.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req annotations.GetRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		ws, err := annotationWorkspace(c)
		if err != nil {
			return nil, err
		}
		page, err := svc.Get(c.Request.Context(), ws, req)
		if err != nil {
			return nil, err
		}
		res := api.OK("Annotations retrieved.", page.Data)
		if page.NextPageToken != "" {
			res = res.With("nextPageToken", page.NextPageToken)
		}
		return res, nil
	})
}

// deleteAnnotations is annotations delete. Its agent filters need the
// advancedQueries feature: without it such a request is NOT_FOUND, as the
// spec has it (the plain filters need nothing).
func deleteAnnotations(svc *annotations.Service, gate features.Gate) func(context.Context, string, annotations.DeleteRequest) (map[string]annotations.ItemResult, error) {
	return func(ctx context.Context, ws string, req annotations.DeleteRequest) (map[string]annotations.ItemResult, error) {
		if req.HasAgentFilters() && gate != nil {
			if err := gate.Require(ctx, ws, features.AdvancedQueries); api.IsStatus(err, api.FailedPrecondition) {
				return nil, api.Errorf(api.NotFound, "agent filters need advancedQueries, which is not enabled for this workspace")
			} else if err != nil {
				return nil, err
			}
		}
		return svc.Delete(ctx, ws, req)
	}
}

// annotationWorkspace is the caller's workspace; routes sit behind
// RequireWorkspace, so an empty one is a wiring mistake, refused.
func annotationWorkspace(c *gin.Context) (string, error) {
	ws := internalauth.WorkspaceID(c.Request.Context())
	if ws == "" {
		return "", api.Errorf(api.PermissionDenied, "not allowed for this caller")
	}
	return ws, nil
}
