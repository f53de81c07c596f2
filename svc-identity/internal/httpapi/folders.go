package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-identity/internal/identity"
)

type folderDTO struct {
	FolderID       string `json:"folderId" validate:"required"`
	FolderName     string `json:"folderName"`
	ParentFolderID string `json:"parentFolderId"`
	AccessType     string `json:"accessType" validate:"oneof=organizationPrivate restricted public"`
}

type addFoldersRequest struct {
	OrganizationID     string      `json:"organizationId" validate:"required"`
	CreateOrganization bool        `json:"createOrganization"`
	Folders            []folderDTO `json:"folders" validate:"required,max=@identity.folders"`
}

type getFoldersRequest struct {
	OrganizationID string `json:"organizationId" validate:"required"`
	FolderID       string `json:"folderId"`
	MaxDepth       *int   `json:"maxDepth" validate:"min=0"`
}

type deleteFolderRequest struct {
	OrganizationID string `json:"organizationId" validate:"required"`
	FolderID       string `json:"folderId" validate:"required"`
}

// folderChangeDTO is a Folder of folders/update; an empty parentFolderId
// means no move ("root" moves the folder to the top).
type folderChangeDTO struct {
	FolderID       string  `json:"folderId" validate:"required"`
	FolderName     *string `json:"folderName"`
	ParentFolderID *string `json:"parentFolderId"`
}

type updateFoldersRequest struct {
	OrganizationID string            `json:"organizationId" validate:"required"`
	Folders        []folderChangeDTO `json:"folders" validate:"required,max=@identity.folders"`
}

// folderItem is a Folder record of folders/get.
type folderItem struct {
	FolderID                string       `json:"folderId"`
	FolderName              string       `json:"folderName"`
	OrganizationID          string       `json:"organizationId"`
	ParentFolderID          string       `json:"parentFolderId"`
	CreatedAt               int64        `json:"createdAt"`
	LastUpdated             int64        `json:"lastUpdated"`
	Ancestors               []string     `json:"ancestors"`
	AccessType              string       `json:"accessType"`
	InheritAccessFromParent bool         `json:"inheritAccessFromParent"`
	SubFolders              []folderItem `json:"subFolders,omitzero"`
}

// newFolderItem renders n; subFolders appears (possibly empty) only in
// the tree of folders/get with a folderId.
func newFolderItem(n identity.FolderNode) folderItem {
	f := n.Folder
	item := folderItem{
		FolderID: f.ID, FolderName: f.Name, OrganizationID: f.OrganizationID, ParentFolderID: f.ParentID,
		CreatedAt: f.CreatedAt, LastUpdated: f.LastUpdated, Ancestors: f.Ancestors, AccessType: f.AccessType,
		// Memberships of enclosing folders reach into this one.
		InheritAccessFromParent: f.ParentID != identity.RootFolder,
	}
	if n.SubFolders != nil {
		item.SubFolders = make([]folderItem, len(n.SubFolders))
		for i, sub := range n.SubFolders {
			item.SubFolders[i] = newFolderItem(sub)
		}
	}
	return item
}

func handleAddFolders(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req addFoldersRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		folders := make([]identity.FolderInput, len(req.Folders))
		for i, f := range req.Folders {
			folders[i] = identity.FolderInput{ID: f.FolderID, Name: f.FolderName, ParentID: f.ParentFolderID, AccessType: f.AccessType}
		}
		out, err := ids.AddFolders(c.Request.Context(), workspace(c), identity.AddFoldersRequest{
			OrganizationID: req.OrganizationID, CreateOrganization: req.CreateOrganization, Folders: folders,
		})
		if err != nil {
			return nil, err
		}
		return api.OK("Folders added.", out), nil
	})
}

func handleGetFolders(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req getFoldersRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		depth := 1
		if req.MaxDepth != nil {
			depth = *req.MaxDepth
		}
		nodes, err := ids.GetFolders(c.Request.Context(), workspace(c), identity.FoldersQuery{
			OrganizationID: req.OrganizationID, FolderID: req.FolderID, MaxDepth: depth,
		})
		if err != nil {
			return nil, err
		}
		items := make([]folderItem, len(nodes))
		for i, n := range nodes {
			items[i] = newFolderItem(n)
		}
		return api.OK("Folders fetched.", items), nil
	})
}

func handleDeleteFolder(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req deleteFolderRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		if err := ids.DeleteFolder(c.Request.Context(), workspace(c), req.OrganizationID, req.FolderID); err != nil {
			return nil, err
		}
		return api.OK("Folder deletion completed.", nil), nil
	})
}

func handleUpdateFolders(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req updateFoldersRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		changes := make([]identity.FolderChange, len(req.Folders))
		for i, f := range req.Folders {
			changes[i] = identity.FolderChange{ID: f.FolderID, Name: f.FolderName, ParentID: f.ParentFolderID}
			if f.ParentFolderID != nil && *f.ParentFolderID == "" {
				changes[i].ParentID = nil
			}
		}
		out, err := ids.UpdateFolders(c.Request.Context(), workspace(c), req.OrganizationID, changes)
		if err != nil {
			return nil, err
		}
		return api.OK("Folders updated.", out), nil
	})
}
