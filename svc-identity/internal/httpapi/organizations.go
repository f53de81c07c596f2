package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// organizationDTO is an Organization of add and update; keys it does not
// declare are the organization's metadata. The keys an organization is
// rendered with are not metadata and are dropped.
type organizationDTO struct {
	OrganizationID   string  `json:"organizationId" validate:"required"`
	OrganizationName *string `json:"organizationName"`
	Disabled         *bool   `json:"disabled"`

	Metadata map[string]any `json:"-"`
}

func (o *organizationDTO) UnmarshalJSON(b []byte) error {
	type fields organizationDTO
	meta, err := decodeOpen(b, (*fields)(o), "id", "createdAt", "lastUpdated")
	o.Metadata = meta
	return err
}

// OpenJSON: keys beyond the fields are metadata.
func (*organizationDTO) OpenJSON() {}

type organizationsRequest struct {
	Organizations []organizationDTO `json:"organizations" validate:"required,max=@identity.organizations"`
}

func (r organizationsRequest) inputs() []identity.OrganizationInput {
	out := make([]identity.OrganizationInput, len(r.Organizations))
	for i, o := range r.Organizations {
		out[i] = identity.OrganizationInput{ID: o.OrganizationID, Name: o.OrganizationName, Disabled: o.Disabled, Metadata: o.Metadata}
	}
	return out
}

type getOrganizationsRequest struct {
	OrganizationIDs []string `json:"organizationIds" validate:"max=@identity.queryIds"`
	PageSize        *int     `json:"pageSize" validate:"min=1,max=1000"`
	PageToken       string   `json:"pageToken"`
}

type deleteOrganizationsRequest struct {
	OrganizationIDs []string `json:"organizationIds" validate:"required,max=@identity.organizations"`
}

// organizationItem renders an organization: its metadata keys next to the
// record's own, which win.
func organizationItem(o identity.Organization) map[string]any {
	item := make(map[string]any, len(o.Metadata)+5)
	for k, v := range o.Metadata {
		item[k] = v
	}
	item["id"], item["organizationName"], item["disabled"] = o.ID, o.Name, o.Disabled
	item["createdAt"], item["lastUpdated"] = o.CreatedAt, o.LastUpdated
	return item
}

func handleAddOrganizations(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req organizationsRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		out, err := ids.AddOrganizations(c.Request.Context(), workspace(c), req.inputs())
		if err != nil {
			return nil, err
		}
		return api.OK("Organizations added.", out), nil
	})
}

func handleGetOrganizations(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req getOrganizationsRequest
		if err := api.Decode(c.Request, &req, api.DecodeOptions{AllowEmpty: true}); err != nil {
			return nil, err
		}
		page, err := ids.GetOrganizations(c.Request.Context(), workspace(c), identity.OrganizationsQuery{
			IDs: req.OrganizationIDs, PageSize: size(req.PageSize), PageToken: req.PageToken,
		})
		if err != nil {
			return nil, err
		}
		items := make([]map[string]any, len(page.Organizations))
		for i, o := range page.Organizations {
			items[i] = organizationItem(o)
		}
		return api.OK("Organizations fetched.", items).With("nextPageToken", nextToken(page.NextPageToken)), nil
	})
}

func handleUpdateOrganizations(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req organizationsRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		out, err := ids.UpdateOrganizations(c.Request.Context(), workspace(c), req.inputs())
		if err != nil {
			return nil, err
		}
		return api.OK("Organizations updated.", out), nil
	})
}

func handleDeleteOrganizations(ids *identity.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req deleteOrganizationsRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		out, err := ids.DeleteOrganizations(c.Request.Context(), workspace(c), req.OrganizationIDs)
		if err != nil {
			return nil, err
		}
		return api.OK("Organizations deleted.", out), nil
	})
}
