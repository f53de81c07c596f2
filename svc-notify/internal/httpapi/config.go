package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-notify/internal/notify"
)

// configGetRequest is notifications/config/get.
type configGetRequest struct {
	OrganizationID string   `json:"organizationId" validate:"required"`
	DocumentIDs    []string `json:"documentIds" validate:"required,max=@notify.configGetDocuments"`
	UserID         string   `json:"userId" validate:"required"`
}

// configItem is one Notification configuration (read).
type configItem struct {
	Config   configLevels   `json:"config"`
	Metadata configMetadata `json:"metadata"`
}

type configLevels struct {
	Inbox string `json:"inbox"`
	Email string `json:"email"`
}

type configMetadata struct {
	OrganizationID string `json:"organizationId"`
	// APIKey is in the spec's shape; the service never sees the key (the
	// gateway resolves it to a workspace), so it is always empty.
	APIKey     string `json:"apiKey"`
	DocumentID string `json:"documentId"`
	UserID     string `json:"userId"`
}

// configSetRequest is notifications/config/set; documentIds is required on
// v1 only (v2 without it sets the users' organization-level default).
type configSetRequest struct {
	OrganizationID string     `json:"organizationId" validate:"required"`
	UserIDs        []string   `json:"userIds" validate:"required,max=@notify.configSetUsers"`
	DocumentIDs    []string   `json:"documentIds" validate:"max=@notify.configSetDocuments"`
	Config         *configDTO `json:"config" validate:"required"`
}

type configDTO struct {
	Inbox string `json:"inbox" validate:"oneof=ALL MINE NONE"`
	Email string `json:"email" validate:"oneof=ALL MINE NONE"`
	Slack string `json:"slack" validate:"oneof=ALL MINE NONE"`
}

// configSetResult is one item of config/set's result map. The map is keyed
// by userId; with several documents by "<userId>/<documentId>".
type configSetResult struct {
	Success    bool   `json:"success"`
	UserID     string `json:"userId"`
	DocumentID string `json:"documentId,omitempty"`
	Message    string `json:"message"`
}

func handleGetConfig(svc *notify.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req configGetRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		configs, err := svc.GetConfigs(c.Request.Context(), workspace(c), req.OrganizationID, req.UserID, req.DocumentIDs)
		if err != nil {
			return nil, err
		}
		items := make([]configItem, 0, len(configs))
		for _, dc := range configs {
			items = append(items, configItem{
				Config:   configLevels{Inbox: string(dc.Config.Inbox), Email: string(dc.Config.Email)},
				Metadata: configMetadata{OrganizationID: req.OrganizationID, DocumentID: dc.DocumentID, UserID: req.UserID},
			})
		}
		return api.OK("Notification configuration retrieved.", items), nil
	})
}

func handleSetConfig(svc *notify.Service, v version) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req configSetRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		if v == v1 && len(req.DocumentIDs) == 0 {
			return nil, api.Errorf(api.InvalidArgument, "field documentIds is required")
		}
		cfg := notify.Config{Inbox: notify.Level(req.Config.Inbox), Email: notify.Level(req.Config.Email), Slack: notify.Level(req.Config.Slack)}
		if err := svc.SetConfigs(c.Request.Context(), workspace(c), req.OrganizationID, req.UserIDs, req.DocumentIDs, cfg); err != nil {
			return nil, err
		}
		return api.OK("Notification configuration set.", configSetResults(req.UserIDs, req.DocumentIDs)), nil
	})
}

func configSetResults(userIDs, docIDs []string) map[string]configSetResult {
	out := make(map[string]configSetResult, len(userIDs)*max(1, len(docIDs)))
	const msg = "Notification configuration set."
	if len(docIDs) <= 1 {
		docID := ""
		if len(docIDs) == 1 {
			docID = docIDs[0]
		}
		for _, u := range userIDs {
			out[u] = configSetResult{Success: true, UserID: u, DocumentID: docID, Message: msg}
		}
		return out
	}
	for _, u := range userIDs {
		for _, d := range docIDs {
			out[u+"/"+d] = configSetResult{Success: true, UserID: u, DocumentID: d, Message: msg}
		}
	}
	return out
}
