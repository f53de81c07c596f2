package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/docaccess"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// handleUsersWithAccess serves docaccess.Path: which of the users have
// access to the document. svc-notify and svc-content ask it when a caller
// sends verifyUserPermissions; the decision is permissions/get's.
func handleUsersWithAccess(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req docaccess.Request
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		got, err := ids.UsersWithDocumentAccess(c.Request.Context(), req.WorkspaceID, req.OrganizationID, req.DocumentID, req.UserIDs)
		if err != nil {
			return nil, err
		}
		return api.OK("Document access decided.", docaccess.Reply{UserIDs: got.UserIDs, DocumentFound: got.DocumentFound}), nil
	})
}
