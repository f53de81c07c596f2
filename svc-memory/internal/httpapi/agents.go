package httpapi

import (
	"encoding/json"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-memory/internal/agents"
)

// Request shapes of the agent operations (adjacent-operations §12,
// rest-interface /v2/agents/update). create and version/update take open
// objects (extra fields pass through), decoded in the agents package.

type agentIDRequest struct {
	AgentID string `json:"agentId" validate:"required"`
}

type agentGetRequest struct {
	AgentID   *string `json:"agentId"`
	Filter    string  `json:"filter" validate:"oneof=defaultOnly customOnly"`
	GroupID   *string `json:"groupId"`
	PageSize  *int    `json:"pageSize" validate:"min=1,max=1000"`
	PageToken string  `json:"pageToken"`
}

type agentUpdateRequest struct {
	AgentID     string  `json:"agentId" validate:"required"`
	Name        *string `json:"name"`
	Description *string `json:"description"`
	Enabled     *bool   `json:"enabled"`
}

type agentIDResponse struct {
	AgentID string `json:"agentId"`
}

func handleAgentCreate(svc *agents.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var data map[string]json.RawMessage
		if err := api.Decode(c.Request, &data); err != nil {
			return nil, err
		}
		ctx := c.Request.Context()
		id, err := svc.Create(ctx, internalauth.WorkspaceID(ctx), data)
		if err != nil {
			return nil, err
		}
		return api.OK("Agent created.", agentIDResponse{AgentID: id}), nil
	})
}

func handleAgentGet(svc *agents.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req agentGetRequest
		if err := api.Decode(c.Request, &req, api.DecodeOptions{AllowEmpty: true}); err != nil {
			return nil, err
		}
		if err := checkMinOne(req.AgentID, "agentId"); err != nil {
			return nil, err
		}
		if err := checkMinOne(req.GroupID, "groupId"); err != nil {
			return nil, err
		}
		ctx := c.Request.Context()
		ws := internalauth.WorkspaceID(ctx)
		if req.AgentID != nil {
			agent, err := svc.Get(ctx, ws, *req.AgentID)
			if err != nil {
				return nil, err
			}
			return api.OK("Agent retrieved.", map[string]any{"agent": agent}), nil
		}
		q := agents.ListQuery{Filter: req.Filter, PageToken: req.PageToken}
		if req.GroupID != nil {
			q.GroupID = *req.GroupID
		}
		if req.PageSize != nil {
			q.PageSize = *req.PageSize
		}
		page, err := svc.List(ctx, ws, q)
		if err != nil {
			return nil, err
		}
		var next any // null on the last page
		if page.NextPageToken != "" {
			next = page.NextPageToken
		}
		return api.OK("Agents retrieved.", map[string]any{"agents": page.Agents}).With("nextPageToken", next), nil
	})
}

// checkMinOne refuses a field sent as an empty string (min 1 char).
func checkMinOne(v *string, field string) error {
	if v != nil && *v == "" {
		return api.Errorf(api.InvalidArgument, "field %s must not be empty", field)
	}
	return nil
}

func handleAgentUpdate(svc *agents.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req agentUpdateRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		ctx := c.Request.Context()
		patch := agents.IdentityPatch{Name: req.Name, Description: req.Description, Enabled: req.Enabled}
		if err := svc.Update(ctx, internalauth.WorkspaceID(ctx), req.AgentID, patch); err != nil {
			return nil, err
		}
		return api.OK("Agent updated.", agentIDResponse{AgentID: req.AgentID}), nil
	})
}

func handleAgentDelete(svc *agents.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req agentIDRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		ctx := c.Request.Context()
		if err := svc.Delete(ctx, internalauth.WorkspaceID(ctx), req.AgentID); err != nil {
			return nil, err
		}
		return api.OK("Agent deleted.", agentIDResponse{AgentID: req.AgentID}), nil
	})
}

func handleAgentVersionUpdate(svc *agents.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var data map[string]json.RawMessage
		if err := api.Decode(c.Request, &data); err != nil {
			return nil, err
		}
		id, err := agentIDOf(data)
		if err != nil {
			return nil, err
		}
		ctx := c.Request.Context()
		version, err := svc.UpdateVersion(ctx, internalauth.WorkspaceID(ctx), id, data)
		if err != nil {
			return nil, err
		}
		return api.OK("Agent version created.", map[string]int{"version": version}), nil
	})
}

// agentIDOf reads the required agentId of an open request object.
func agentIDOf(data map[string]json.RawMessage) (string, error) {
	var id string
	if raw, sent := data["agentId"]; sent && json.Unmarshal(raw, &id) != nil {
		return "", api.Errorf(api.InvalidArgument, "field agentId has the wrong type: want string")
	}
	if strings.TrimSpace(id) == "" {
		return "", api.Errorf(api.InvalidArgument, "field agentId is required")
	}
	return id, nil
}

func handleAgentVersionsList(svc *agents.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req agentIDRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		ctx := c.Request.Context()
		versions, err := svc.ListVersions(ctx, internalauth.WorkspaceID(ctx), req.AgentID)
		if err != nil {
			return nil, err
		}
		return api.OK("Agent versions retrieved.", map[string]any{"versions": versions}), nil
	})
}
