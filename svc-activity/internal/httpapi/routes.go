// Package httpapi is the HTTP surface of svc-activity: routes, handlers and
// the wire shapes of requests and replies.
package httpapi

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/erasure"
	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/svc-activity/internal/activity"
)

// Internal routes of the document migration contract.
const (
	MigratePath = "/internal/documents/migrate"
	HasDataPath = "/internal/documents/has-data"
)

// FeatureGate tells whether a workspace has a feature switched on
// (pkg/features.Checker).
type FeatureGate interface {
	Require(ctx context.Context, workspaceID string, f features.Name) error
}

// Routes registers every operation on e. The public ones act for the
// workspace the gateway signed and need the workspace's activity service
// switched on; the document hooks are for other services (svc-content).
func Routes(e *gin.Engine, signer *internalauth.Signer, svc *activity.Service, gate FeatureGate) {
	authed := e.Group("", signer.Authenticate())

	public := authed.Group("/v2/activities", internalauth.RequireWorkspace(), requireFeature(gate, features.ActivityService))
	public.POST("/add", handleAdd(svc))
	public.POST("/update", handleUpdate(svc))
	public.POST("/get", handleGet(svc))
	public.POST("/delete", handleDelete(svc))

	internal := authed.Group("", internalauth.RequireService())
	internal.POST(MigratePath, handleMigrate(svc))
	internal.POST(HasDataPath, handleHasData(svc))
	internal.POST(erasure.Path, erasure.Handler(svc.EraseUsers))
}

// requireFeature runs before decoding: a workspace without the feature
// gets FAILED_PRECONDITION whatever it sent.
func requireFeature(gate FeatureGate, f features.Name) gin.HandlerFunc {
	return func(c *gin.Context) {
		ctx := c.Request.Context()
		if err := gate.Require(ctx, internalauth.WorkspaceID(ctx), f); err != nil {
			api.WriteError(ctx, c.Writer, err)
			c.Abort()
			return
		}
		c.Next()
	}
}
