package httpapi

import (
	"time"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-identity/internal/identity"
	"github.com/opencollab/backend/svc-identity/internal/signing"
)

func handleGenerateSignature(secrets Secrets) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req signatureRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		if err := checkPermissionData(req.Permissions); err != nil {
			return nil, err
		}
		sec, err := secrets.Get(c.Request.Context(), workspace(c))
		if err != nil {
			return nil, err
		}
		sig := signing.Sign(sec.Signature, req.Permissions)
		return api.OK("Signature generated.", gin.H{"signature": sig}), nil
	})
}

func handleVerifySignature(secrets Secrets) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req verifySignatureRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		if err := checkPermissionData(req.Permissions); err != nil {
			return nil, err
		}
		sec, err := secrets.Get(c.Request.Context(), workspace(c))
		if err != nil {
			return nil, err
		}
		valid := signing.Verify(sec.Signature, req.Permissions, req.Signature)
		return api.OK("Signature checked.", gin.H{"valid": valid}), nil
	})
}

func handleGenerateToken(secrets Secrets, now func() time.Time) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req generateTokenRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		if !validEmail(req.UserProperties.Email) {
			return nil, api.Errorf(api.InvalidArgument, "field userProperties.email is not a valid e-mail address")
		}
		at := now()
		resources := *req.Permissions.Resources
		if err := checkResources(resources, at); err != nil {
			return nil, err
		}
		sec, err := secrets.Get(c.Request.Context(), workspace(c))
		if err != nil {
			return nil, err
		}
		token, err := signing.IssueToken(sec.JWT, signing.TokenClaims{
			WorkspaceID: workspace(c), UserID: req.UserID,
			User: req.UserProperties.claims(), Resources: tokenResources(resources),
		}, at)
		if err != nil {
			return nil, err
		}
		return api.OK("Token generated.", gin.H{"token": token}), nil
	})
}

func tokenResources(rs []resourceDTO) []signing.TokenResource {
	out := make([]signing.TokenResource, len(rs))
	for i, r := range rs {
		out[i] = signing.TokenResource{
			Type: r.Type, ID: r.ID, OrganizationID: r.OrganizationID, AccessRole: r.role(), ExpiresAt: r.ExpiresAt,
		}
	}
	return out
}

func handleAddPermissions(ids *identity.Service, now func() time.Time) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req addPermissionsRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		if err := checkResources(req.Permissions.Resources, now()); err != nil {
			return nil, err
		}
		grants := make([]identity.Grant, len(req.Permissions.Resources))
		for i, r := range req.Permissions.Resources {
			grants[i] = identity.Grant{
				Type: identity.ResourceType(r.Type), ID: r.ID, OrganizationID: r.OrganizationID,
				AccessRole: identity.Role(r.role()), ExpiresAt: r.ExpiresAt,
			}
		}
		if err := ids.AddPermissions(c.Request.Context(), workspace(c), req.User.UserID, grants); err != nil {
			return nil, err
		}
		return api.Done("Permissions added."), nil
	})
}

func handleGetPermissions(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req getPermissionsRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		out, err := ids.GetPermissions(c.Request.Context(), workspace(c), identity.PermissionsQuery{
			OrganizationID: req.OrganizationID, UserIDs: req.UserIDs,
			FolderIDs: req.FolderIDs, DocumentIDs: req.DocumentIDs, SkipExistenceCheck: req.SkipExistenceCheck,
		})
		if err != nil {
			return nil, err
		}
		return api.OK("Permissions fetched.", out), nil
	})
}

func handleRemovePermissions(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req removePermissionsRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		refs := make([]identity.ResourceRef, len(req.Permissions.Resources))
		for i, r := range req.Permissions.Resources {
			if r.Type == string(identity.ResourceDocument) && r.OrganizationID == "" {
				return nil, api.Errorf(api.InvalidArgument, "field permissions.resources[%d].organizationId is required for document resources", i)
			}
			refs[i] = identity.ResourceRef{Type: identity.ResourceType(r.Type), ID: r.ID, OrganizationID: r.OrganizationID}
		}
		if err := ids.RemovePermissions(c.Request.Context(), workspace(c), req.UserID, refs); err != nil {
			return nil, err
		}
		return api.Done("Permissions removed."), nil
	})
}
