package internalauth

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
)

type ctxKey struct{}

// WithPrincipal stores the verified principal in ctx.
func WithPrincipal(ctx context.Context, principal string) context.Context {
	return context.WithValue(ctx, ctxKey{}, principal)
}

// PrincipalFrom returns the verified principal of the request.
func PrincipalFrom(ctx context.Context) string {
	p, _ := ctx.Value(ctxKey{}).(string)
	return p
}

// WorkspaceID returns the workspace the request acts for ("" if none).
func WorkspaceID(ctx context.Context) string {
	id, _ := WorkspaceOf(PrincipalFrom(ctx))
	return id
}

// Authenticate verifies the signed principal of every request; requests
// without one get PERMISSION_DENIED and reach no handler.
func (s *Signer) Authenticate() gin.HandlerFunc {
	return func(c *gin.Context) {
		p, err := s.Verify(c.Request.Header)
		if err != nil {
			api.WriteError(c.Request.Context(), c.Writer, api.Errorf(api.PermissionDenied, "request is not authenticated"))
			c.Abort()
			return
		}
		c.Request = c.Request.WithContext(WithPrincipal(c.Request.Context(), p))
		c.Next()
	}
}

// RequireWorkspace lets through only requests made for a workspace.
func RequireWorkspace() gin.HandlerFunc {
	return require(func(p string) bool { _, ok := WorkspaceOf(p); return ok })
}

// RequireOperator lets through only operator requests.
func RequireOperator() gin.HandlerFunc {
	return require(func(p string) bool { return p == Operator })
}

// RequireRealtimeUpgrade lets through only WebSocket upgrades the gateway
// forwarded to a realtime endpoint (internalauth.RealtimeUpgrade).
func RequireRealtimeUpgrade() gin.HandlerFunc {
	return require(func(p string) bool { return p == RealtimeUpgrade })
}

// RequireService lets through only service-to-service requests.
func RequireService() gin.HandlerFunc {
	return require(IsService)
}

func require(ok func(string) bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		if !ok(PrincipalFrom(c.Request.Context())) {
			api.WriteError(c.Request.Context(), c.Writer, api.Errorf(api.PermissionDenied, "not allowed for this caller"))
			c.Abort()
			return
		}
		c.Next()
	}
}
