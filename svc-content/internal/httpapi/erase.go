package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-content/internal/annotations"
)

// ErasePath is svc-identity's call of the GDPR erasure job.
const ErasePath = "/internal/userdata/erase"

type eraseRequest struct {
	WorkspaceID string   `json:"workspaceId" validate:"required"`
	UserIDs     []string `json:"userIds" validate:"required,max=100"`
}

func handleErase(svc *annotations.Service) gin.HandlerFunc {
	return api.Handle(func(c *gin.Context) (*api.Result, error) {
		var req eraseRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		total := 0
		for _, u := range req.UserIDs {
			n, err := svc.EraseUser(c.Request.Context(), req.WorkspaceID, u)
			if err != nil {
				return nil, err
			}
			total += n
		}
		return api.OK("User data erased.", map[string]int{"erased": total}), nil
	})
}
