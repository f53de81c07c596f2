package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-identity/internal/identity"
)

func handleAddUsers(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req addUsersRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		out, err := ids.AddUsers(c.Request.Context(), workspace(c), identity.AddUsersRequest{
			Scope:        scope(req.OrganizationID, req.FolderID, req.DocumentID),
			CreateFolder: req.CreateFolder, CreateDocument: req.CreateDocument,
			Users: inputs(req.Users),
		})
		if err != nil {
			return nil, err
		}
		return api.OK("Users added.", out), nil
	})
}

func handleUpdateUsers(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req updateUsersRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		return updateUsers(c, ids, scope(req.OrganizationID, req.FolderID, req.DocumentID), inputs(req.Users))
	})
}

func handleUpdateUsersV1(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req updateUsersV1Request
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		return updateUsers(c, ids, scope(req.OrganizationID, req.FolderID, req.DocumentID), inputs(req.Users))
	})
}

func updateUsers(c *gin.Context, ids *identity.Service, sc identity.Scope, users []identity.UserInput) (*api.Result, error) {
	out, err := ids.UpdateUsers(c.Request.Context(), workspace(c), identity.UpdateUsersRequest{Scope: sc, Users: users})
	if err != nil {
		return nil, err
	}
	return api.OK("Users updated.", out), nil
}

func handleGetUsers(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req getUsersRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		page, err := ids.GetUsers(c.Request.Context(), workspace(c), identity.UsersQuery{
			Scope:   scope(req.OrganizationID, req.FolderID, req.DocumentID),
			UserIDs: req.UserIDs, GroupIDs: req.GroupIDs,
			AllDocuments: req.AllDocuments, GroupByDocument: req.GroupByDocumentID,
			PageSize: size(req.PageSize), PageToken: req.PageToken,
		})
		if err != nil {
			return nil, err
		}
		var data any = page.Users
		if req.GroupByDocumentID {
			data = page.ByDocument
		}
		return api.OK("Users fetched.", data).With("nextPageToken", nextToken(page.NextPageToken)), nil
	})
}

func handleDeleteUsers(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req deleteUsersRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		out, err := ids.DeleteUsers(c.Request.Context(), workspace(c), identity.DeleteUsersRequest{
			Scope:   scope(req.OrganizationID, req.FolderID, req.DocumentID),
			UserIDs: req.UserIDs,
		})
		if err != nil {
			return nil, err
		}
		return api.OK("Users deleted.", out), nil
	})
}
