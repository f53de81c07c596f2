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

// annotationRoutes registers the comment-annotation operations (spec §7).
// The two reaction operations are ours: the spec models reactions but
// documents no REST operation for them (see annotations/reactions.go).
// The reads that are advanced queries need the workspace's switch on.
func annotationRoutes(g gin.IRoutes, svc *annotations.Service, gate features.Gate) {
	advanced := features.Middleware(gate, features.AdvancedQueries)
	g.POST("/v2/commentannotations/add", web.Handle(annotationOp(svc.Add, "Annotations added.")))
	g.POST("/v2/commentannotations/get", advanced, handleAnnotationsGet(svc))
	g.POST("/v2/commentannotations/count/get", advanced, web.Handle(annotationOp(svc.Count, "Comment count retrieved successfully.")))
	g.POST("/v2/commentannotations/update", web.Handle(annotationOp(svc.Update, "Annotations updated.")))
	g.POST("/v2/commentannotations/delete", web.Handle(annotationOp(svc.Delete, "Annotations deleted.")))
	g.POST("/v2/commentannotations/comments/add", web.Handle(annotationOp(svc.AddComments, "Comments added.")))
	g.POST("/v2/commentannotations/comments/get", advanced, web.Handle(annotationOp(svc.GetComments, "Comments retrieved.")))
	g.POST("/v2/commentannotations/comments/update", web.Handle(annotationOp(svc.UpdateComments, "Comments updated.")))
	g.POST("/v2/commentannotations/comments/delete", web.Handle(annotationOp(svc.DeleteComments, "Comments deleted.")))
	g.POST("/v2/commentannotations/reactions/add", web.Handle(annotationOp(svc.AddReaction, "Reaction added.")))
	g.POST("/v2/commentannotations/reactions/delete", web.Handle(annotationOp(svc.DeleteReaction, "Reaction deleted.")))
}

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

// annotationWorkspace is the caller's workspace; routes sit behind
// RequireWorkspace, so an empty one is a wiring mistake, refused.
func annotationWorkspace(c *gin.Context) (string, error) {
	ws := internalauth.WorkspaceID(c.Request.Context())
	if ws == "" {
		return "", api.Errorf(api.PermissionDenied, "not allowed for this caller")
	}
	return ws, nil
}
