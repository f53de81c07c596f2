package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/docscope"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// handleEnsureScope serves docscope.Path: creates the organization and
// document a comment or notification add names, as its createOrganization
// and createDocument ask.
func handleEnsureScope(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req docscope.Request
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		err := ids.EnsureScope(c.Request.Context(), req.WorkspaceID, req.OrganizationID, req.DocumentID, req.CreateOrganization, req.CreateDocument)
		if err != nil {
			return nil, err
		}
		return api.OK("Organization and document ensured.", map[string]any{}), nil
	})
}
