package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// Every id list of these calls takes at most 30 ids: the hosted product
// documents 30 for documents; folders and organizations get the same bound.

type folderAccessRequest struct {
	OrganizationID string   `json:"organizationId" validate:"required"`
	FolderIDs      []string `json:"folderIds" validate:"required,max=@identity.queryIds"`
	AccessType     string   `json:"accessType" validate:"required,oneof=organizationPrivate restricted public"`
}

type documentAccessRequest struct {
	OrganizationID string   `json:"organizationId" validate:"required"`
	DocumentIDs    []string `json:"documentIds" validate:"required,max=@identity.queryIds"`
	AccessType     string   `json:"accessType" validate:"required,oneof=organizationPrivate restricted public"`
}

type organizationDisableRequest struct {
	OrganizationIDs []string `json:"organizationIds" validate:"required,max=@identity.queryIds"`
	Disabled        *bool    `json:"disabled" validate:"required"`
}

type documentDisableRequest struct {
	OrganizationID string   `json:"organizationId" validate:"required"`
	DocumentIDs    []string `json:"documentIds" validate:"required,max=@identity.queryIds"`
	Disabled       *bool    `json:"disabled" validate:"required"`
}

type moveDocumentsRequest struct {
	OrganizationID string   `json:"organizationId" validate:"required"`
	DocumentIDs    []string `json:"documentIds" validate:"required,max=@identity.queryIds"`
	FolderID       string   `json:"folderId" validate:"required"`
}

// checkIDs refuses blank ids, which no record can have.
func checkIDs(field string, ids []string) error {
	for i, id := range ids {
		if id == "" || len(id) > 256 {
			return api.Errorf(api.InvalidArgument, "field %s[%d] must be 1 to 256 characters", field, i)
		}
	}
	return nil
}

func handleFolderAccess(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req folderAccessRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		if err := checkIDs("folderIds", req.FolderIDs); err != nil {
			return nil, err
		}
		out, err := ids.UpdateFolderAccess(c.Request.Context(), workspace(c), req.OrganizationID, req.FolderIDs, req.AccessType)
		if err != nil {
			return nil, err
		}
		return api.OK("Updated access for folders successfully.", out), nil
	})
}

func handleDocumentAccess(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req documentAccessRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		if err := checkIDs("documentIds", req.DocumentIDs); err != nil {
			return nil, err
		}
		out, err := ids.UpdateDocumentAccess(c.Request.Context(), workspace(c), req.OrganizationID, req.DocumentIDs, req.AccessType)
		if err != nil {
			return nil, err
		}
		return api.OK("Updated access for documents successfully.", out), nil
	})
}

func handleOrganizationDisable(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req organizationDisableRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		if err := checkIDs("organizationIds", req.OrganizationIDs); err != nil {
			return nil, err
		}
		out, err := ids.SetOrganizationsDisabled(c.Request.Context(), workspace(c), req.OrganizationIDs, *req.Disabled)
		if err != nil {
			return nil, err
		}
		return api.OK("Updated disabled state for organizations successfully.", out), nil
	})
}

func handleDocumentDisable(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req documentDisableRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		if err := checkIDs("documentIds", req.DocumentIDs); err != nil {
			return nil, err
		}
		out, err := ids.SetDocumentsDisabled(c.Request.Context(), workspace(c), req.OrganizationID, req.DocumentIDs, *req.Disabled)
		if err != nil {
			return nil, err
		}
		return api.OK("Updated disabled state for documents successfully.", out), nil
	})
}

func handleMoveDocuments(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req moveDocumentsRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		if err := checkIDs("documentIds", req.DocumentIDs); err != nil {
			return nil, err
		}
		out, err := ids.MoveDocuments(c.Request.Context(), workspace(c), req.OrganizationID, req.DocumentIDs, req.FolderID)
		if err != nil {
			return nil, err
		}
		return api.OK("Documents moved successfully.", out), nil
	})
}
