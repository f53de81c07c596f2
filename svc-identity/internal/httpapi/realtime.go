package httpapi

import (
	"context"
	"errors"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-identity/internal/identity"
	"github.com/opencollab/backend/svc-identity/internal/signing"
)

// RealtimeAccessPath is the route svc-content asks whether a user token
// (from /v2/auth/generate_token) may open a document in realtime sync.
const RealtimeAccessPath = "/internal/realtime/access"

// TokenSecrets gives the secrets of a workspace that has some, creating
// none (signing.SecretStore).
type TokenSecrets interface {
	Existing(ctx context.Context, workspaceID string) (signing.Secrets, bool, error)
}

type realtimeAccessRequest struct {
	Token          string `json:"token" validate:"required"`
	OrganizationID string `json:"organizationId" validate:"required"`
	DocumentID     string `json:"documentId" validate:"required"`
}

// realtimeAccess is the decision: allowed with a role, or refused with a
// reason (unauthenticated: the token itself is bad or expired).
type realtimeAccess struct {
	Allowed         bool   `json:"allowed"`
	Unauthenticated bool   `json:"unauthenticated,omitempty"`
	Reason          string `json:"reason,omitempty"`
	WorkspaceID     string `json:"workspaceId,omitempty"`
	UserID          string `json:"userId,omitempty"`
	AccessRole      string `json:"accessRole,omitempty"`
	ExpiresAt       int64  `json:"expiresAt,omitempty"` // the token's, epoch ms like every expiresAt
}

func handleRealtimeAccess(ids *identity.Service, secrets TokenSecrets, now func() time.Time) gin.HandlerFunc {
	return api.Handle(func(c *gin.Context) (*api.Result, error) {
		var req realtimeAccessRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		claims, denial, err := verifyUserToken(c.Request.Context(), secrets, req.Token, now())
		if err != nil {
			return nil, err
		}
		if denial != "" {
			return api.OK("Token refused.", realtimeAccess{Unauthenticated: true, Reason: denial}), nil
		}
		info, err := ids.DecideTokenAccess(c.Request.Context(), claims.WorkspaceID, tokenAccess(claims), req.OrganizationID, req.DocumentID)
		if err != nil {
			return nil, err
		}
		out := realtimeAccess{WorkspaceID: claims.WorkspaceID, UserID: claims.UserID, ExpiresAt: claims.ExpiresAt.UnixMilli()}
		if info.AccessRole == "" {
			out.Reason = "the token grants no access to document " + req.DocumentID + " of organization " + req.OrganizationID + " (or the grant was removed)"
			return api.OK("Access refused.", out), nil
		}
		out.Allowed, out.AccessRole = true, string(info.AccessRole)
		return api.OK("Access granted.", out), nil
	})
}

// verifyUserToken checks the token with its workspace's secret; denial
// says why a bad token is refused.
func verifyUserToken(ctx context.Context, secrets TokenSecrets, token string, now time.Time) (signing.TokenClaims, string, error) {
	ws, err := signing.TokenWorkspace(token)
	if err != nil {
		return signing.TokenClaims{}, "the token is not a valid user token", nil
	}
	sec, ok, err := secrets.Existing(ctx, ws)
	if err != nil {
		return signing.TokenClaims{}, "", err
	}
	if !ok {
		return signing.TokenClaims{}, "the token is not a valid user token", nil
	}
	claims, err := signing.ParseToken(sec.JWT, token, now)
	if errors.Is(err, signing.ErrInvalidToken) {
		return signing.TokenClaims{}, "the token is invalid or expired", nil
	}
	return claims, "", err
}

func tokenAccess(c signing.TokenClaims) identity.TokenAccess {
	t := identity.TokenAccess{UserID: c.UserID, IssuedAt: c.IssuedAt.UnixMilli()}
	for _, r := range c.Resources {
		t.Resources = append(t.Resources, identity.Grant{
			Type: identity.ResourceType(r.Type), ID: r.ID, OrganizationID: r.OrganizationID,
			AccessRole: identity.Role(r.AccessRole), ExpiresAt: r.ExpiresAt,
		})
	}
	return t
}
