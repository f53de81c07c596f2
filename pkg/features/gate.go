package features

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
)

// Gate tells whether a workspace has a feature switched on (a *Checker;
// tests pass fakes).
type Gate interface {
	Require(ctx context.Context, workspaceID string, f Name) error
}

// Middleware lets a request through only when the workspace it acts for
// (signed by the gateway) has f switched on. It runs before the body is
// decoded, so a workspace without the feature gets FAILED_PRECONDITION
// whatever it sent, and UNAVAILABLE when its switches cannot be read. A nil
// gate allows everything.
func Middleware(gate Gate, f Name) gin.HandlerFunc {
	return func(c *gin.Context) {
		if err := Require(c.Request.Context(), gate, f); err != nil {
			api.WriteError(c.Request.Context(), c.Writer, err)
			c.Abort()
			return
		}
		c.Next()
	}
}

// Require is Middleware's check for handlers that gate only some requests
// (an advanced query among plain ones): nil when the workspace in ctx has f
// switched on or gate is nil.
func Require(ctx context.Context, gate Gate, f Name) error {
	if gate == nil {
		return nil
	}
	if c, ok := gate.(*Checker); ok && c == nil {
		return nil
	}
	return gate.Require(ctx, internalauth.WorkspaceID(ctx), f)
}
