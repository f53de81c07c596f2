// Package httpapi is the HTTP surface of svc-memory: routes, handlers and
// the wire shapes of requests and replies.
package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/erasure"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/svc-memory/internal/agents"
	"github.com/opencollab/backend/svc-memory/internal/memory"
)

// Internal routes of the document migration contract.
const (
	MigratePath = "/internal/documents/migrate"
	HasDataPath = "/internal/documents/has-data"
)

// Routes registers every operation on e. The public ones act for the
// workspace the gateway signed; the document hooks are for other services
// (svc-content).
func Routes(e *gin.Engine, signer *internalauth.Signer, mem *memory.Service, ag *agents.Service) {
	authed := e.Group("", signer.Authenticate())

	agent := authed.Group("/v2/agents", internalauth.RequireWorkspace())
	agent.POST("/create", handleAgentCreate(ag))
	agent.POST("/get", handleAgentGet(ag))
	agent.POST("/update", handleAgentUpdate(ag))
	agent.POST("/delete", handleAgentDelete(ag))
	agent.POST("/version/update", handleAgentVersionUpdate(ag))
	agent.POST("/versions/list", handleAgentVersionsList(ag))

	mems := authed.Group("/v2/memory", internalauth.RequireWorkspace())
	mems.POST("/search", handleSearch(mem))
	mems.POST("/ask", handleAsk(mem))
	mems.POST("/suggest", handleSuggest(mem))
	mems.POST("/judgments/query", handleJudgmentsQuery(mem))
	mems.POST("/index/status", handleIndexStatus(mem))

	internal := authed.Group("", internalauth.RequireService())
	internal.POST(MigratePath, handleMigrate(mem))
	internal.POST(HasDataPath, handleHasData(mem))
	internal.POST(erasure.Path, erasure.Handler(mem.EraseReviewers)) // GDPR: judgments and vectors
}
