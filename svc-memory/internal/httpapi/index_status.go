package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-memory/internal/memory"
)

// handleIndexStatus reports the embedding model search uses and the last
// or running re-embedding (operation: null when there has been none since
// the start). It reads no request fields; the body may be empty.
func handleIndexStatus(svc *memory.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		st := svc.Status()
		return (&api.Result{Bare: true}).With("model", st.Model).With("operation", st.Operation), nil
	})
}
