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

// handleOrganizationUsersWithAccess serves docaccess.OrganizationPath:
// which users of the organization have access to the document, for a
// verified notification to the whole organization. Too many of them is
// FAILED_PRECONDITION (see identity.OrganizationUsersWithDocumentAccess).
func handleOrganizationUsersWithAccess(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req docaccess.OrganizationRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		got, err := ids.OrganizationUsersWithDocumentAccess(c.Request.Context(), req.WorkspaceID, req.OrganizationID, req.DocumentID)
		if err != nil {
			return nil, err
		}
		return api.OK("Document access decided.", docaccess.Reply{UserIDs: got.UserIDs, DocumentFound: got.DocumentFound}), nil
	})
}
