// Package httpapi is the HTTP surface of svc-notify: routes, handlers that
// decode and validate each request (nothing invalid reaches storage) and
// call the notify service, and the wire shapes.
package httpapi

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/docmigrate"
	"github.com/opencollab/backend/pkg/erasure"
	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/svc-notify/internal/notify"
)

// Internal routes other services call.
const (
	UserDataPath = "/internal/userdata/notifications"
)

// version is the path version of an operation whose v1 and v2 differ.
type version int

const (
	v1 version = 1
	v2 version = 2
)

// Routes mounts every operation on e. Public operations need a request
// signed by the gateway for a workspace; internal ones a service principal.
// The /v2 paths answer like /v1 except where the spec makes v2 differ
// (add, get, config/set).
func Routes(e *gin.Engine, signer *internalauth.Signer, svc *notify.Service, gate features.Gate) {
	authed := e.Group("", signer.Authenticate())

	r := authed.Group("", internalauth.RequireWorkspace())
	r.POST("/v1/notifications/add", handleAdd(svc, v1))
	r.POST("/v2/notifications/add", handleAdd(svc, v2))
	r.POST("/v1/notifications/get", handleGet(svc, v1))
	r.POST("/v2/notifications/get", features.Middleware(gate, features.AdvancedQueries), handleGet(svc, v2))
	r.POST("/v1/notifications/update", handleUpdate(svc))
	r.POST("/v2/notifications/update", handleUpdate(svc))
	r.POST("/v1/notifications/delete", handleDelete(svc))
	r.POST("/v2/notifications/delete", handleDelete(svc))

	cfg := r.Group("", features.Middleware(gate, features.NotificationConfig))
	cfg.POST("/v1/notifications/config/get", handleGetConfig(svc))
	cfg.POST("/v2/notifications/config/get", handleGetConfig(svc))
	cfg.POST("/v1/notifications/config/set", handleSetConfig(svc, v1))
	cfg.POST("/v2/notifications/config/set", handleSetConfig(svc, v2))

	internal := authed.Group("", internalauth.RequireService())
	docmigrate.Routes(internal, documentOwner{svc})
	internal.POST(UserDataPath, handleUserData(svc))
	internal.POST(erasure.Path, erasure.Handler(func(ctx context.Context, ws string, users []string) (int64, error) {
		n, err := svc.EraseUsers(ctx, ws, users)
		return int64(n), err
	}))
}

// workspace is the workspace the request acts for (RequireWorkspace made
// sure there is one).
func workspace(c *gin.Context) string { return internalauth.WorkspaceID(c.Request.Context()) }

// nextToken renders a page token: null on the last page.
func nextToken(token string) any {
	if token == "" {
		return nil
	}
	return token
}
