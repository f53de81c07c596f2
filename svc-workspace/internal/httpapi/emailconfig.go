package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-workspace/internal/webhook"
)

// emailConfigResponse is the email service configuration (the API key
// masked), the reply of get and update.
type emailConfigResponse struct {
	UseEmailService    bool                  `json:"useEmailService"`
	EmailServiceConfig emailServiceConfigDTO `json:"emailServiceConfig"`
}

type emailServiceConfigDTO struct {
	Type              string          `json:"type"`
	APIKey            string          `json:"apiKey"`
	FromEmail         string          `json:"fromEmail"`
	FromCompany       string          `json:"fromCompany"`
	CommentTemplateID string          `json:"commentTemplateId"`
	TagTemplateID     string          `json:"tagTemplateId"`
	Triggers          map[string]bool `json:"triggers"`
}

type updateEmailConfigRequest struct {
	UseEmailService    *bool                  `json:"useEmailService"`
	EmailServiceConfig *emailServiceUpdateDTO `json:"emailServiceConfig"`
}

type emailServiceUpdateDTO struct {
	Type              *string         `json:"type" validate:"max=20"`
	APIKey            *string         `json:"apiKey" validate:"max=1024"`
	FromEmail         *string         `json:"fromEmail" validate:"max=320"`
	FromCompany       *string         `json:"fromCompany" validate:"max=200"`
	CommentTemplateID *string         `json:"commentTemplateId" validate:"max=200"`
	TagTemplateID     *string         `json:"tagTemplateId" validate:"max=200"`
	Triggers          map[string]bool `json:"triggers"`
}

// triggersPath holds event types as keys, which contain dots; they are
// stored as values, never as field names.
const triggersPath = "emailServiceConfig.triggers"

func emailConfigOf(c webhook.EmailConfig) emailConfigResponse {
	triggers := c.Triggers
	if triggers == nil {
		triggers = map[string]bool{}
	}
	return emailConfigResponse{UseEmailService: c.UseEmailService, EmailServiceConfig: emailServiceConfigDTO{
		Type: c.Type, APIKey: c.APIKeyMasked, FromEmail: c.FromEmail, FromCompany: c.FromCompany,
		CommentTemplateID: c.CommentTemplateID, TagTemplateID: c.TagTemplateID, Triggers: triggers,
	}}
}

func handleGetEmailConfig(svc *webhook.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req struct{}
		if err := api.Decode(c.Request, &req, api.DecodeOptions{AllowEmpty: true}); err != nil {
			return nil, err
		}
		ctx := c.Request.Context()
		cfg, err := svc.EmailConfig(ctx, internalauth.WorkspaceID(ctx))
		if err != nil {
			return nil, err
		}
		return api.OK("Email configuration retrieved.", emailConfigOf(cfg)), nil
	})
}

func handleUpdateEmailConfig(svc *webhook.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req updateEmailConfigRequest
		if err := api.Decode(c.Request, &req, api.DecodeOptions{FreeKeys: []string{triggersPath}}); err != nil {
			return nil, err
		}
		u := webhook.EmailUpdate{UseEmailService: req.UseEmailService}
		if s := req.EmailServiceConfig; s != nil {
			u.Service = &webhook.EmailServiceUpdate{
				Type: s.Type, APIKey: s.APIKey, FromEmail: s.FromEmail, FromCompany: s.FromCompany,
				CommentTemplateID: s.CommentTemplateID, TagTemplateID: s.TagTemplateID, Triggers: s.Triggers,
			}
		}
		ctx := c.Request.Context()
		cfg, err := svc.UpdateEmailConfig(ctx, internalauth.WorkspaceID(ctx), u)
		if err != nil {
			return nil, err
		}
		return api.OK("Email configuration updated.", emailConfigOf(cfg)), nil
	})
}
