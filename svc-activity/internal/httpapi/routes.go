// Package httpapi is the HTTP surface of svc-activity: routes, handlers and
// the wire shapes of requests and replies.
package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/docmigrate"
	"github.com/opencollab/backend/pkg/erasure"
	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/svc-activity/internal/activity"
)

// Routes registers every operation on e. The public ones act for the
// workspace the gateway signed and need the workspace's activity service
// switched on; the document hooks are for other services (svc-content).
func Routes(e *gin.Engine, signer *internalauth.Signer, svc *activity.Service, gate features.Gate) {
	authed := e.Group("", signer.Authenticate())

	public := authed.Group("/v2/activities", internalauth.RequireWorkspace(), features.Middleware(gate, features.ActivityService))
	public.POST("/add", handleAdd(svc))
	public.POST("/update", handleUpdate(svc))
	public.POST("/get", handleGet(svc))
	public.POST("/delete", handleDelete(svc))

	internal := authed.Group("", internalauth.RequireService())
	docmigrate.Routes(internal, docmigrate.Keyed(svc))
	internal.POST(erasure.Path, erasure.Handler(svc.EraseUsers))
}
