package httpapi

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-workspace/internal/delivery"
)

// AttemptsPath lists the delivery attempts of a webhook endpoint.
const AttemptsPath = "/v2/workspace/advancedwebhook/endpoints/attempts/get"

type getAttemptsRequest struct {
	EndpointID string  `json:"endpointId" validate:"required,max=200"`
	Limit      *int    `json:"limit" validate:"min=1,max=250"`
	Iterator   *string `json:"iterator" validate:"max=1000"`
}

type attemptsResponse struct {
	Attempts []attemptView `json:"attempts"`
	Iterator *string       `json:"iterator"`
	Done     bool          `json:"done"`
}

type attemptView struct {
	ID         string  `json:"id"`
	MessageID  string  `json:"messageId"`
	EventType  string  `json:"eventType"`
	Attempt    int     `json:"attempt"`
	Status     string  `json:"status"`
	StatusCode *int    `json:"statusCode"`
	DurationMs *int64  `json:"durationMs"`
	Error      *string `json:"error"`
	Timestamp  string  `json:"timestamp"`
}

func handleGetAttempts(svc *delivery.Service, requireEnabled func(ctx context.Context, workspaceID string) error) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		ctx := c.Request.Context()
		ws := internalauth.WorkspaceID(ctx)
		if err := requireEnabled(ctx, ws); err != nil {
			return nil, err
		}
		var req getAttemptsRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		limit, iterator := 0, ""
		if req.Limit != nil {
			limit = *req.Limit
		}
		if req.Iterator != nil {
			iterator = *req.Iterator
		}
		page, err := svc.Attempts(ctx, ws, req.EndpointID, limit, iterator)
		if err != nil {
			return nil, err
		}
		return api.OK("Attempts retrieved.", attemptsPage(page)), nil
	})
}

func attemptsPage(p delivery.AttemptsPage) attemptsResponse {
	out := attemptsResponse{Attempts: make([]attemptView, 0, len(p.Attempts)), Done: p.Done}
	if p.Iterator != "" {
		out.Iterator = &p.Iterator
	}
	for _, a := range p.Attempts {
		out.Attempts = append(out.Attempts, attemptView{
			ID: a.ID, MessageID: a.MessageID, EventType: a.EventType, Attempt: a.Attempt, Status: a.Status,
			StatusCode: a.StatusCode, DurationMs: a.DurationMs, Error: a.Error,
			Timestamp: a.Timestamp.UTC().Format(isoMillis),
		})
	}
	return out
}
