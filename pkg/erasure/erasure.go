// Package erasure is the internal contract of the GDPR erasure job: the
// route svc-identity's job calls on every service that holds user data,
// its request, and the handler each service mounts with its own eraser.
package erasure

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/web"
)

// Path is the internal route each service serves for the erasure job.
const Path = "/internal/userdata/erase"

// The erasure limits: the users and organizations one users/data/delete
// request (and so one call of Path) names.
var limitTable = []api.Limit{
	{Name: "erasure.userIds", Max: 100, Doc: "userIds of users/data/delete (and of each service's internal erase call)"},
	{Name: "erasure.organizationIds", Max: 100, Doc: "organizationIds of users/data/delete"},
}

func init() { api.RegisterLimits(limitTable...) }

// Request names the users whose data a service erases in one workspace.
type Request struct {
	WorkspaceID string   `json:"workspaceId" validate:"required"`
	UserIDs     []string `json:"userIds" validate:"required,max=@erasure.userIds"`
}

// EraseFunc erases the users' data a service holds and says how many
// records it erased or redacted. It must be idempotent: the job retries.
type EraseFunc func(ctx context.Context, workspaceID string, userIDs []string) (int64, error)

// Handler serves Path with erase.
func Handler(erase EraseFunc) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req Request
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		n, err := erase(c.Request.Context(), req.WorkspaceID, req.UserIDs)
		if err != nil {
			return nil, err
		}
		return api.OK("User data erased.", map[string]int64{"erased": n}), nil
	})
}
