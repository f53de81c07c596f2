// Package httpapi is the HTTP surface of svc-workspace: routes, handlers and
// the wire shapes of requests and replies.
package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/erasure"
	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/svc-workspace/internal/delivery"
	"github.com/opencollab/backend/svc-workspace/internal/webhook"
	"github.com/opencollab/backend/svc-workspace/internal/workspace"
)

// LookupPath is the gateway's credential lookup route.
const LookupPath = "/internal/credentials/lookup"

// Routes registers every operation on e. All of them need a signed
// principal: the operator operations the operator (the gateway has checked
// the operator token), the workspace configuration the workspace the
// gateway authenticated, the lookup a service (the gateway itself), the
// settings read a service (feature checks of the other services).
func Routes(e *gin.Engine, signer *internalauth.Signer, svc *workspace.Service, hooks *webhook.Service, deliveries *delivery.Service) {
	authed := e.Group("", signer.Authenticate())

	operator := authed.Group("/v2/workspace", internalauth.RequireOperator())
	operator.POST("/create", handleCreateWorkspace(svc))
	operator.POST("/authtoken/create", handleCreateToken(svc))
	operator.POST("/authtoken/reset", handleResetToken(svc))
	operator.POST("/features/update", handleUpdateFeatures(svc))
	operator.POST("/features/get", handleGetFeatures(svc))

	forWorkspace := authed.Group("", internalauth.RequireWorkspace())
	config := forWorkspace.Group("/v2/workspace")
	emailConfigRoutes(config, hooks) // /emailconfig/get|update
	domainRoutes(config, svc)        // /domains/add|delete
	webhookRoutes(config, hooks)     // /advancedwebhookconfig/*, /advancedwebhook/endpoints/*
	attemptRoutes(forWorkspace, deliveries, hooks.RequireEnabled)

	internal := authed.Group("", internalauth.RequireService())
	internal.POST(LookupPath, handleLookup(svc))
	internal.POST(features.SettingsPath, handleGetSettings(svc))
	internal.POST(erasure.Path, erasure.Handler(deliveries.EraseUsers)) // GDPR: webhook payloads
}
