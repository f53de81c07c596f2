package httpapi

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/svc-content/internal/annotations"
)

// annotationRoutes registers the comment-annotation operations (spec §7).
// The two reaction operations are ours: the spec models reactions but
// documents no REST operation for them (see annotations/reactions.go).
func annotationRoutes(g gin.IRoutes, svc *annotations.Service, checker *features.Checker) {
	g.POST("/v2/commentannotations/add", api.Handle(annotationOp(svc.Add, "Annotations added.")))
	g.POST("/v2/commentannotations/get", handleAnnotationsGet(svc, checker))
	g.POST("/v2/commentannotations/count/get", advancedQuery(checker, annotationOp(svc.Count, "Comment count retrieved successfully.")))
	g.POST("/v2/commentannotations/update", api.Handle(annotationOp(svc.Update, "Annotations updated.")))
	g.POST("/v2/commentannotations/delete", api.Handle(annotationOp(svc.Delete, "Annotations deleted.")))
	g.POST("/v2/commentannotations/comments/add", api.Handle(annotationOp(svc.AddComments, "Comments added.")))
	g.POST("/v2/commentannotations/comments/get", advancedQuery(checker, annotationOp(svc.GetComments, "Comments retrieved.")))
	g.POST("/v2/commentannotations/comments/update", api.Handle(annotationOp(svc.UpdateComments, "Comments updated.")))
	g.POST("/v2/commentannotations/comments/delete", api.Handle(annotationOp(svc.DeleteComments, "Comments deleted.")))
	g.POST("/v2/commentannotations/reactions/add", api.Handle(annotationOp(svc.AddReaction, "Reaction added.")))
	g.POST("/v2/commentannotations/reactions/delete", api.Handle(annotationOp(svc.DeleteReaction, "Reaction deleted.")))
}

// annotationOp is the handler of an operation whose result is its data:
// decode the body into Req, call op for the caller's workspace, answer.
func annotationOp[Req, Out any](op func(context.Context, string, Req) (Out, error), message string) api.HandlerFunc {
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

// advancedQuery runs h only for workspaces with advanced queries on.
func advancedQuery(checker *features.Checker, h api.HandlerFunc) gin.HandlerFunc {
	return api.Handle(func(c *gin.Context) (*api.Result, error) {
		ws, err := annotationWorkspace(c)
		if err != nil {
			return nil, err
		}
		if err := checker.Require(c.Request.Context(), ws, features.AdvancedQueries); err != nil {
			return nil, err
		}
		return h(c)
	})
}

func handleAnnotationsGet(svc *annotations.Service, checker *features.Checker) gin.HandlerFunc {
	return advancedQuery(checker, func(c *gin.Context) (*api.Result, error) {
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
