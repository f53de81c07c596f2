// Package httpapi is the HTTP surface of svc-workspace: routes, handlers and
// the wire shapes of requests and replies.
package httpapi

import (
	"context"

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

// emailConfigRoutes registers the email service configuration operations
// on the workspace group.
func emailConfigRoutes(g gin.IRoutes, svc *webhook.Service) {
	g.POST("/emailconfig/get", handleGetEmailConfig(svc))
	g.POST("/emailconfig/update", handleUpdateEmailConfig(svc))
}

// domainRoutes registers the allowed domains operations (the web origins
// the realtime endpoints accept) on the workspace group.
func domainRoutes(g gin.IRoutes, svc *workspace.Service) {
	g.POST("/domains/add", handleDomains(svc.AddDomains, "domainsAdded",
		"Domain(s) added successfully to allowed domains.", " Skipped existing domains."))
	g.POST("/domains/delete", handleDomains(svc.DeleteDomains, "domainsRemoved",
		"Domain(s) removed successfully from allowed domains.", " Skipped non-existing domains."))
}

// webhookRoutes registers the advanced webhook configuration and endpoint
// operations on the workspace group. Availability (the operator switch and
// isEnabled) is checked by the operations themselves.
func webhookRoutes(g gin.IRoutes, svc *webhook.Service) {
	g.POST("/advancedwebhookconfig/get", handleGetWebhookConfig(svc))
	g.POST("/advancedwebhookconfig/update", handleUpdateWebhookConfig(svc))
	g.POST("/advancedwebhook/endpoints/create", handleCreateEndpoint(svc))
	g.POST("/advancedwebhook/endpoints/get", handleListEndpoints(svc))
	g.POST("/advancedwebhook/endpoints/update", handleUpdateEndpoint(svc))
	g.POST("/advancedwebhook/endpoints/delete", handleDeleteEndpoint(svc))
	g.POST("/advancedwebhook/endpoints/secret/get", handleGetEndpointSecret(svc))
	g.POST("/advancedwebhook/endpoints/secret/rotate", handleRotateEndpointSecret(svc))
}

// attemptRoutes registers the attempt listing on g (behind workspace auth).
// requireEnabled refuses workspaces without advanced webhooks.
func attemptRoutes(g gin.IRoutes, svc *delivery.Service, requireEnabled func(ctx context.Context, workspaceID string) error) {
	g.POST(AttemptsPath, handleGetAttempts(svc, requireEnabled))
}
