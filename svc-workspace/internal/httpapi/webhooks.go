package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-workspace/internal/webhook"
)

func handleGetWebhookConfig(svc *webhook.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req struct{}
		if err := api.Decode(c.Request, &req, api.DecodeOptions{AllowEmpty: true}); err != nil {
			return nil, err
		}
		ctx := c.Request.Context()
		cfg, err := svc.Config(ctx, internalauth.WorkspaceID(ctx))
		if err != nil {
			return nil, err
		}
		return api.OK("Advanced webhook configuration retrieved.", webhookConfigOf(cfg)), nil
	})
}

func handleUpdateWebhookConfig(svc *webhook.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req updateWebhookConfigRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		ctx := c.Request.Context()
		cfg, err := svc.UpdateConfig(ctx, internalauth.WorkspaceID(ctx), webhook.ConfigUpdate{
			IsEnabled: req.IsEnabled, EncryptData: req.EncryptData, EncodeData: req.EncodeData,
			PublicKey: req.PublicKey, EnableDataProtection: req.EnableDataProtection,
		})
		if err != nil {
			return nil, err
		}
		return api.OK("Advanced webhook configuration updated.", webhookConfigOf(cfg)), nil
	})
}

func handleCreateEndpoint(svc *webhook.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req createEndpointRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		if err := refuseSecret(req.Secret); err != nil {
			return nil, err
		}
		ctx := c.Request.Context()
		e, err := svc.CreateEndpoint(ctx, internalauth.WorkspaceID(ctx), webhook.EndpointSpec{
			URL: req.URL, Description: req.Description, UID: req.UID, FilterTypes: req.FilterTypes,
			Channels: req.Channels, Disabled: req.Disabled, RateLimit: req.RateLimit, Metadata: req.Metadata,
		})
		if err != nil {
			return nil, err
		}
		return api.OK("Endpoint created.", endpointOf(e)), nil
	})
}

func handleListEndpoints(svc *webhook.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req listEndpointsRequest
		if err := api.Decode(c.Request, &req, api.DecodeOptions{AllowEmpty: true}); err != nil {
			return nil, err
		}
		limit := 0
		if req.Limit != nil {
			limit = *req.Limit
		}
		ctx := c.Request.Context()
		page, err := svc.ListEndpoints(ctx, internalauth.WorkspaceID(ctx), limit, req.Iterator)
		if err != nil {
			return nil, err
		}
		return api.OK("Endpoints retrieved.", endpointPageOf(page)), nil
	})
}

func handleUpdateEndpoint(svc *webhook.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req updateEndpointRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		changes, err := req.changes()
		if err != nil {
			return nil, err
		}
		ctx := c.Request.Context()
		e, err := svc.UpdateEndpoint(ctx, internalauth.WorkspaceID(ctx), req.EndpointID, changes)
		if err != nil {
			return nil, err
		}
		return api.OK("Endpoint updated.", endpointOf(e)), nil
	})
}

func handleDeleteEndpoint(svc *webhook.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req endpointIDRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		ctx := c.Request.Context()
		if err := svc.DeleteEndpoint(ctx, internalauth.WorkspaceID(ctx), req.EndpointID); err != nil {
			return nil, err
		}
		return api.OK("Endpoint deleted.", endpointDeletedDTO{EndpointID: req.EndpointID, Deleted: true}), nil
	})
}

func handleGetEndpointSecret(svc *webhook.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req endpointIDRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		ctx := c.Request.Context()
		secret, err := svc.EndpointSecret(ctx, internalauth.WorkspaceID(ctx), req.EndpointID)
		if err != nil {
			return nil, err
		}
		return api.OK("Endpoint secret retrieved.", endpointSecretDTO{EndpointID: req.EndpointID, Secret: secret}), nil
	})
}

func handleRotateEndpointSecret(svc *webhook.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req endpointIDRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		ctx := c.Request.Context()
		if err := svc.RotateEndpointSecret(ctx, internalauth.WorkspaceID(ctx), req.EndpointID); err != nil {
			return nil, err
		}
		return api.OK("Endpoint secret rotated.", endpointRefDTO{EndpointID: req.EndpointID}), nil
	})
}
