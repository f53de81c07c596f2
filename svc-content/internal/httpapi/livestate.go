package httpapi

import (
	"context"
	"encoding/json"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/web"
)

// LiveState delivers live state broadcasts to realtime clients
// (internal/realtime.Hub).
type LiveState interface {
	BroadcastLiveState(ctx context.Context, ws, org, doc, payload string) (int, error)
}

// maxLiveStateBytes bounds one broadcast's data as JSON.
const maxLiveStateBytes = 64 << 10

type liveStateRequest struct {
	OrganizationID  string          `json:"organizationId" validate:"required,max=256"`
	DocumentID      string          `json:"documentId" validate:"required,max=256"`
	LiveStateDataID string          `json:"liveStateDataId" validate:"required,max=256"`
	Data            json.RawMessage `json:"data"`
	Merge           bool            `json:"merge"`
}

// liveStatePayload is what clients receive.
type liveStatePayload struct {
	Type            string          `json:"type"`
	LiveStateDataID string          `json:"liveStateDataId"`
	Data            json.RawMessage `json:"data"`
	Merge           bool            `json:"merge"`
}

func handleLiveStateBroadcast(live LiveState) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req liveStateRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		if len(req.Data) == 0 || string(req.Data) == "null" {
			return nil, api.Errorf(api.InvalidArgument, "field data is required")
		}
		if len(req.Data) > maxLiveStateBytes {
			return nil, api.Errorf(api.InvalidArgument, "field data must be at most %d bytes of JSON", maxLiveStateBytes)
		}
		if live == nil {
			return nil, api.Errorf(api.FailedPrecondition, "realtime sync is not enabled in this deployment")
		}
		ws, err := annotationWorkspace(c)
		if err != nil {
			return nil, err
		}
		payload, err := json.Marshal(liveStatePayload{Type: "liveState", LiveStateDataID: req.LiveStateDataID, Data: req.Data, Merge: req.Merge})
		if err != nil {
			return nil, err
		}
		if _, err := live.BroadcastLiveState(c.Request.Context(), ws, req.OrganizationID, req.DocumentID, string(payload)); err != nil {
			return nil, api.Errorf(api.Unavailable, "broadcast to other replicas failed: %v", err)
		}
		return api.OK("Event broadcasted successfully.", map[string]bool{"success": true}), nil
	})
}
