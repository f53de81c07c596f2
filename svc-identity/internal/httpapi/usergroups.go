package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-identity/internal/identity"
)

type groupDTO struct {
	GroupID   string  `json:"groupId" validate:"required"`
	GroupName *string `json:"groupName"`
}

type addGroupsRequest struct {
	OrganizationID     string     `json:"organizationId" validate:"required"`
	CreateOrganization bool       `json:"createOrganization"`
	Groups             []groupDTO `json:"organizationUserGroups" validate:"required,max=@identity.groups"`
}

type addGroupMembersRequest struct {
	OrganizationID string   `json:"organizationId" validate:"required"`
	GroupID        string   `json:"organizationUserGroupId" validate:"required"`
	UserIDs        []string `json:"userIds" validate:"required,max=@identity.userIds"`
}

type removeGroupMembersRequest struct {
	OrganizationID string   `json:"organizationId" validate:"required"`
	GroupID        string   `json:"organizationUserGroupId" validate:"required"`
	UserIDs        []string `json:"userIds" validate:"max=@identity.userIds"`
	DeleteAll      bool     `json:"deleteAll"`
}

func handleAddGroups(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req addGroupsRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		groups := make([]identity.Group, len(req.Groups))
		for i, g := range req.Groups {
			groups[i] = identity.Group{ID: g.GroupID, Name: g.GroupName}
		}
		out, err := ids.AddGroups(c.Request.Context(), workspace(c), req.OrganizationID, req.CreateOrganization, groups)
		if err != nil {
			return nil, err
		}
		return api.OK("User groups added.", out), nil
	})
}

func handleAddGroupMembers(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req addGroupMembersRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		out, err := ids.AddGroupMembers(c.Request.Context(), workspace(c), req.OrganizationID, req.GroupID, req.UserIDs)
		if err != nil {
			return nil, err
		}
		return api.OK("Users added to the user group.", out), nil
	})
}

func handleRemoveGroupMembers(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req removeGroupMembersRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		if !req.DeleteAll && len(req.UserIDs) == 0 {
			return nil, api.Errorf(api.InvalidArgument, "field userIds is required unless deleteAll is true")
		}
		out, err := ids.RemoveGroupMembers(c.Request.Context(), workspace(c), req.OrganizationID, req.GroupID, req.UserIDs, req.DeleteAll)
		if err != nil {
			return nil, err
		}
		return api.OK("Users removed from the user group.", out), nil
	})
}
