package httpapi

import (
	"encoding/json"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-identity/internal/identity"
	"github.com/opencollab/backend/svc-identity/internal/userdata"
)

type getUserDataRequest struct {
	OrganizationID string `json:"organizationId" validate:"required"`
	UserID         string `json:"userId" validate:"required"`
	PageToken      string `json:"pageToken"`
}

// userDataDTO is result.data of users/data/get: the four arrays (never
// null) and, beyond the spec's arrays, what identity knows of the user.
type userDataDTO struct {
	User          *identity.UserOverview `json:"user"`
	Comments      []json.RawMessage      `json:"comments"`
	Reactions     []json.RawMessage      `json:"reactions"`
	Recordings    []json.RawMessage      `json:"recordings"`
	Notifications []json.RawMessage      `json:"notifications"`
}

func handleGetUserData(data *userdata.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req getUserDataRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		if data == nil {
			return nil, api.Errorf(api.Unavailable, "user data is not available in this deployment")
		}
		page, err := data.Get(c.Request.Context(), userdata.Query{
			WorkspaceID: workspace(c), OrganizationID: req.OrganizationID, UserID: req.UserID, PageToken: req.PageToken,
		})
		if err != nil {
			return nil, err
		}
		return api.OK("User data fetched.", userDataDTO{
			User: page.User, Comments: page.Comments, Reactions: page.Reactions,
			Recordings: page.Recordings, Notifications: page.Notifications,
		}).With("nextPageToken", nextToken(page.NextPageToken)), nil
	})
}
