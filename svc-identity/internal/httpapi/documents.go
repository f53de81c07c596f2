package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// documentDTO is a Document of add and update; keys it does not declare are
// the document's metadata, except the keys a document is rendered with.
type documentDTO struct {
	DocumentID   string  `json:"documentId" validate:"required"`
	DocumentName *string `json:"documentName"`
	AccessType   *string `json:"accessType" validate:"oneof=default restricted public organizationPrivate"`
	Disabled     *bool   `json:"disabled"`

	Metadata map[string]any `json:"-"`
}

func (d *documentDTO) UnmarshalJSON(b []byte) error {
	type fields documentDTO
	meta, err := decodeOpen(b, (*fields)(d), "id", "folderId", "organizationId", "createdAt", "lastUpdated")
	d.Metadata = meta
	return err
}

// OpenJSON: keys beyond the fields are metadata.
func (*documentDTO) OpenJSON() {}

// input maps the accessType alias organizationPrivate to default.
func (d documentDTO) input() identity.DocumentInput {
	in := identity.DocumentInput{ID: d.DocumentID, Name: d.DocumentName, AccessType: d.AccessType, Disabled: d.Disabled, Metadata: d.Metadata}
	if in.AccessType != nil && *in.AccessType == identity.OrganizationPrivate {
		def := identity.DocumentDefault
		in.AccessType = &def
	}
	return in
}

func documentInputs(docs []documentDTO) []identity.DocumentInput {
	out := make([]identity.DocumentInput, len(docs))
	for i, d := range docs {
		out[i] = d.input()
	}
	return out
}

type addDocumentsRequest struct {
	OrganizationID     string        `json:"organizationId" validate:"required"`
	CreateOrganization bool          `json:"createOrganization"`
	FolderID           string        `json:"folderId"`
	CreateFolder       bool          `json:"createFolder"`
	Documents          []documentDTO `json:"documents" validate:"required,max=@identity.documents"`
}

type getDocumentsRequest struct {
	OrganizationID string   `json:"organizationId" validate:"required"`
	DocumentIDs    []string `json:"documentIds" validate:"max=@identity.queryIds"`
	FolderID       string   `json:"folderId"`
	PageSize       *int     `json:"pageSize" validate:"min=1,max=1000"`
	PageToken      string   `json:"pageToken"`
}

type updateDocumentsRequest struct {
	OrganizationID string        `json:"organizationId" validate:"required"`
	Documents      []documentDTO `json:"documents" validate:"required,max=@identity.documents"`
}

type deleteDocumentsRequest struct {
	OrganizationID string   `json:"organizationId" validate:"required"`
	DocumentIDs    []string `json:"documentIds" validate:"required,max=@identity.documents"`
}

// documentItem renders a documents/get entry: the record with its metadata
// (the record's keys win), or a not-found entry.
func documentItem(e identity.DocumentEntry) map[string]any {
	d := e.Document
	if d == nil {
		return map[string]any{"id": e.ID, "success": false, "message": "Document does not exist.", "code": identity.CodeNotFound}
	}
	item := make(map[string]any, len(d.Metadata)+7)
	for k, v := range d.Metadata {
		item[k] = v
	}
	item["id"], item["documentName"], item["disabled"] = d.ID, d.Name, d.Disabled
	item["accessType"], item["folderId"] = e.AccessType, d.FolderID
	item["createdAt"], item["lastUpdated"] = d.CreatedAt, d.LastUpdated
	return item
}

func handleAddDocuments(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req addDocumentsRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		out, err := ids.AddDocuments(c.Request.Context(), workspace(c), identity.AddDocumentsRequest{
			OrganizationID: req.OrganizationID, CreateOrganization: req.CreateOrganization,
			FolderID: req.FolderID, CreateFolder: req.CreateFolder, Documents: documentInputs(req.Documents),
		})
		if err != nil {
			return nil, err
		}
		return api.OK("Documents added.", out), nil
	})
}

func handleGetDocuments(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req getDocumentsRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		page, err := ids.GetDocuments(c.Request.Context(), workspace(c), identity.DocumentsQuery{
			OrganizationID: req.OrganizationID, IDs: req.DocumentIDs, FolderID: req.FolderID,
			PageSize: size(req.PageSize), PageToken: req.PageToken,
		})
		if err != nil {
			return nil, err
		}
		items := make([]map[string]any, len(page.Entries))
		for i, e := range page.Entries {
			items[i] = documentItem(e)
		}
		return api.OK("Documents fetched.", items).With("pageToken", nextToken(page.NextPageToken)), nil
	})
}

func handleUpdateDocuments(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req updateDocumentsRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		out, err := ids.UpdateDocuments(c.Request.Context(), workspace(c), req.OrganizationID, documentInputs(req.Documents))
		if err != nil {
			return nil, err
		}
		return api.OK("Documents updated.", out), nil
	})
}

func handleDeleteDocuments(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req deleteDocumentsRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		out, err := ids.DeleteDocuments(c.Request.Context(), workspace(c), req.OrganizationID, req.DocumentIDs)
		if err != nil {
			return nil, err
		}
		return api.OK("Documents deleted.", out), nil
	})
}
