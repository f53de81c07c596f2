package httpapi

import (
	"encoding/json"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/svc-content/internal/crdt"
)

// crdtRoutes registers the CRDT editor-data operations.
func crdtRoutes(g gin.IRoutes, svc *crdt.Service) {
	g.POST("/v2/crdt/add", handleCRDTAdd(svc))
	g.POST("/v2/crdt/get", handleCRDTGet(svc))
	g.POST("/v2/crdt/update", handleCRDTUpdate(svc))
}

// crdtDecode lets map content keep keys with dots: data is stored as JSON
// text, never as field names ('$' keys are still refused).
var crdtDecode = api.DecodeOptions{FreeKeys: []string{"data"}}

// crdtWriteRequest is the body of /v2/crdt/add and /v2/crdt/update.
type crdtWriteRequest struct {
	OrganizationID string          `json:"organizationId" validate:"required"`
	DocumentID     string          `json:"documentId" validate:"required"`
	EditorID       string          `json:"editorId" validate:"required"`
	Type           string          `json:"type" validate:"required,oneof=text map array xml"`
	Data           json.RawMessage `json:"data" validate:"required"`
	ContentKey     *string         `json:"contentKey"`
	UserID         string          `json:"userId"` // optional: recorded as lastUpdatedBy
}

func (r crdtWriteRequest) editor() crdt.Editor {
	return crdt.Editor{OrganizationID: r.OrganizationID, DocumentID: r.DocumentID, EditorID: r.EditorID}
}

// content refuses an explicitly empty contentKey; absent means the default
// (add) or the stored key (update).
func (r crdtWriteRequest) content() (crdt.Content, error) {
	c := crdt.Content{Type: r.Type, Data: r.Data}
	if r.ContentKey != nil {
		if *r.ContentKey == "" {
			return c, api.Errorf(api.InvalidArgument, "field contentKey must not be empty")
		}
		c.ContentKey = *r.ContentKey
	}
	return c, nil
}

type crdtGetRequest struct {
	OrganizationID string `json:"organizationId" validate:"required"`
	DocumentID     string `json:"documentId" validate:"required"`
	EditorID       string `json:"editorId"` // empty: every editor of the document
}

func handleCRDTAdd(svc *crdt.Service) gin.HandlerFunc {
	return api.Handle(func(c *gin.Context) (*api.Result, error) {
		var req crdtWriteRequest
		if err := api.Decode(c.Request, &req, crdtDecode); err != nil {
			return nil, err
		}
		content, err := req.content()
		if err != nil {
			return nil, err
		}
		ws := internalauth.WorkspaceID(c.Request.Context())
		if err := svc.Add(c.Request.Context(), ws, req.editor(), content, req.UserID); err != nil {
			return nil, err
		}
		return api.Done("CRDT data added successfully."), nil
	})
}

func handleCRDTGet(svc *crdt.Service) gin.HandlerFunc {
	return api.Handle(func(c *gin.Context) (*api.Result, error) {
		var req crdtGetRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		ws := internalauth.WorkspaceID(c.Request.Context())
		views, err := svc.Get(c.Request.Context(), ws, req.OrganizationID, req.DocumentID, req.EditorID)
		if err != nil {
			return nil, err
		}
		return api.OK("CRDT data retrieved successfully.", views), nil
	})
}

func handleCRDTUpdate(svc *crdt.Service) gin.HandlerFunc {
	return api.Handle(func(c *gin.Context) (*api.Result, error) {
		var req crdtWriteRequest
		if err := api.Decode(c.Request, &req, crdtDecode); err != nil {
			return nil, err
		}
		content, err := req.content()
		if err != nil {
			return nil, err
		}
		ws := internalauth.WorkspaceID(c.Request.Context())
		if err := svc.Update(c.Request.Context(), ws, req.editor(), content, req.UserID); err != nil {
			return nil, err
		}
		return api.Done("CRDT data updated successfully."), nil
	})
}
