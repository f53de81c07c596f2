package httpapi

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/svc-workspace/internal/workspace"
)

// domainRoutes registers the allowed domains operations (the web origins
// the realtime endpoints accept) on the workspace group.
func domainRoutes(g gin.IRoutes, svc *workspace.Service) {
	g.POST("/domains/add", handleDomains(svc.AddDomains, "domainsAdded",
		"Domain(s) added successfully to allowed domains.", " Skipped existing domains."))
	g.POST("/domains/delete", handleDomains(svc.DeleteDomains, "domainsRemoved",
		"Domain(s) removed successfully from allowed domains.", " Skipped non-existing domains."))
}

type domainsRequest struct {
	Domains []string `json:"domains" validate:"required,min=1,max=@workspace.domains"`
}

// handleDomains answers the hosted product's shape: {<changedKey>: [...]},
// plus skippedDomains when some entries changed nothing (the hosted
// product answers that case as an error; here it is a success, see
// docs/velt-compatibility.md).
func handleDomains(change func(context.Context, string, []string) (workspace.DomainsChange, error), changedKey, message, skippedNote string) gin.HandlerFunc {
	return api.Handle(func(c *gin.Context) (*api.Result, error) {
		var req domainsRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		ctx := c.Request.Context()
		ch, err := change(ctx, internalauth.WorkspaceID(ctx), req.Domains)
		if err != nil {
			return nil, err
		}
		data := map[string][]string{changedKey: nonNil(ch.Changed)}
		if len(ch.Skipped) > 0 {
			data["skippedDomains"] = ch.Skipped
			message += skippedNote
		}
		return api.OK(message, data), nil
	})
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
