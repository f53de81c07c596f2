package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-content/internal/annotations"
)

// Handlers of the internal routes.

// userDataRequest is the body data of UserDataPath. Cursors is the next of
// the previous page (absent or empty for the first one).
type userDataRequest struct {
	WorkspaceID    string            `json:"workspaceId" validate:"required"`
	OrganizationID string            `json:"organizationId" validate:"required"`
	UserID         string            `json:"userId" validate:"required"`
	Cursors        map[string]string `json:"cursors" validate:"max=3"`
	Limit          *int              `json:"limit" validate:"min=1,max=100"`
}

// userDataResponse is result.data of UserDataPath; next lacks the key of
// every exhausted array and is absent when all are.
type userDataResponse struct {
	Comments   []map[string]any  `json:"comments"`
	Reactions  []map[string]any  `json:"reactions"`
	Recordings []map[string]any  `json:"recordings"`
	Next       map[string]string `json:"next,omitempty"`
}

func handleUserData(svc *annotations.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req userDataRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		limit := annotations.DefaultUserDataLimit
		if req.Limit != nil {
			limit = *req.Limit
		}
		page, err := svc.UserData(c.Request.Context(), annotations.UserDataQuery{
			WorkspaceID: req.WorkspaceID, OrganizationID: req.OrganizationID, UserID: req.UserID,
			Cursors: req.Cursors, Limit: limit,
		})
		if err != nil {
			return nil, err
		}
		return api.OK("User content retrieved.", userDataResponse{
			Comments: nonNil(page.Comments), Reactions: nonNil(page.Reactions), Recordings: nonNil(page.Recordings),
			Next: page.Next,
		}), nil
	})
}

// nonNil makes an empty array encode as [] rather than null.
func nonNil(items []map[string]any) []map[string]any {
	if items == nil {
		return []map[string]any{}
	}
	return items
}
