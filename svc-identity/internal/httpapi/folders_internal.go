package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/folderdocs"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// handleFolderDocuments serves folderdocs.Path: the documents of one
// folder, for a filter by folder in another service.
func handleFolderDocuments(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req folderdocs.Request
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		got, err := ids.DocumentsInFolder(c.Request.Context(), req.WorkspaceID, req.OrganizationID, req.FolderID)
		if err != nil {
			return nil, err
		}
		return api.OK("Folder documents listed.", folderdocs.Reply{DocumentIDs: got.DocumentIDs, FolderFound: got.FolderFound}), nil
	})
}
