package httpapi

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/features"
)

// Features answers whether a workspace has a feature switched on
// (pkg/features.Checker; a nil *Checker allows everything).
type Features interface {
	Require(ctx context.Context, workspaceID string, f features.Name) error
}

// requireFeature refuses the request, before it is even decoded, unless
// the workspace has f switched on (FAILED_PRECONDITION when it is off).
func requireFeature(checker Features, f features.Name) gin.HandlerFunc {
	return func(c *gin.Context) {
		if checker == nil {
			c.Next()
			return
		}
		if err := checker.Require(c.Request.Context(), workspace(c), f); err != nil {
			api.WriteError(c.Request.Context(), c.Writer, err)
			c.Abort()
			return
		}
		c.Next()
	}
}
