package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/svc-workspace/internal/workspace"
)

func handleCreateWorkspace(svc *workspace.Service) gin.HandlerFunc {
	return api.Handle(func(c *gin.Context) (*api.Result, error) {
		var req createWorkspaceRequest
		if err := api.Decode(c.Request, &req, api.DecodeOptions{AllowEmpty: true}); err != nil {
			return nil, err
		}
		creds, err := svc.CreateWorkspace(c.Request.Context(), req.Name)
		if err != nil {
			return nil, err
		}
		return api.OK("Workspace created.", createWorkspaceResponse{
			WorkspaceID: creds.WorkspaceID, APIKey: creds.APIKey, AuthToken: creds.AuthToken,
		}), nil
	})
}

func handleCreateToken(svc *workspace.Service) gin.HandlerFunc {
	return api.Handle(func(c *gin.Context) (*api.Result, error) {
		var req createTokenRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		creds, err := svc.CreateToken(c.Request.Context(), req.APIKey)
		if err != nil {
			return nil, err
		}
		return api.OK("Auth token created.", createTokenResponse{APIKey: creds.APIKey, AuthToken: creds.AuthToken}), nil
	})
}

func handleResetToken(svc *workspace.Service) gin.HandlerFunc {
	return api.Handle(func(c *gin.Context) (*api.Result, error) {
		var req resetTokenRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		if err := svc.ResetToken(c.Request.Context(), req.APIKey, req.AuthToken); err != nil {
			return nil, err
		}
		return api.Done("Auth token reset."), nil
	})
}

func handleLookup(svc *workspace.Service) gin.HandlerFunc {
	return api.Handle(func(c *gin.Context) (*api.Result, error) {
		var req LookupRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		found, err := svc.LookupCredentials(c.Request.Context(), req.APIKey)
		if err != nil {
			return nil, err
		}
		return api.OK("Credentials found.", LookupResponse{WorkspaceID: found.WorkspaceID, TokenHashes: found.TokenHashes}), nil
	})
}

func handleUpdateFeatures(svc *workspace.Service) gin.HandlerFunc {
	return api.Handle(func(c *gin.Context) (*api.Result, error) {
		var req updateFeaturesRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		set, err := svc.UpdateFeatures(c.Request.Context(), req.APIKey, req.Features)
		if err != nil {
			return nil, err
		}
		return api.OK("Workspace features updated.", featuresResponse{APIKey: set.APIKey, Features: set.Features}), nil
	})
}

func handleGetFeatures(svc *workspace.Service) gin.HandlerFunc {
	return api.Handle(func(c *gin.Context) (*api.Result, error) {
		var req getFeaturesRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		set, err := svc.Features(c.Request.Context(), req.APIKey)
		if err != nil {
			return nil, err
		}
		return api.OK("Workspace features retrieved.", featuresResponse{APIKey: set.APIKey, Features: set.Features}), nil
	})
}

func handleGetSettings(svc *workspace.Service) gin.HandlerFunc {
	return api.Handle(func(c *gin.Context) (*api.Result, error) {
		var req settingsRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		set, err := svc.Settings(c.Request.Context(), req.WorkspaceID)
		if err != nil {
			return nil, err
		}
		return api.OK("Workspace settings retrieved.", features.SettingsResponse{
			WorkspaceID: set.WorkspaceID, Features: set.Features, AllowedDomains: set.AllowedDomains,
		}), nil
	})
}
