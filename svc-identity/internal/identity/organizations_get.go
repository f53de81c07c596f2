package identity

import "context"

// OrganizationsQuery is /v2/organizations/get.
type OrganizationsQuery struct {
	IDs       []string // nil = all
	PageSize  int
	PageToken string
}

// OrganizationsPage is one page of organizations sorted by id.
type OrganizationsPage struct {
	Organizations []Organization
	NextPageToken string
}

// GetOrganizations pages through the requested organizations (all when no
// ids are given); ids that do not exist are left out.
func (s *Service) GetOrganizations(ctx context.Context, ws string, q OrganizationsQuery) (OrganizationsPage, error) {
	key := queryKey("organizations/get", q.IDs)
	var after string
	if err := s.loadCursor(ctx, ws, key, q.PageToken, &after); err != nil {
		return OrganizationsPage{}, err
	}
	limit := pageSize(q.PageSize)
	orgs, err := s.store.ListOrganizations(ctx, ws, OrganizationQuery{IDs: q.IDs, After: after, Limit: limit + 1})
	if err != nil {
		return OrganizationsPage{}, err
	}
	page := OrganizationsPage{Organizations: orgs}
	if len(orgs) > limit {
		page.Organizations = orgs[:limit]
		page.NextPageToken, err = s.saveCursor(ctx, ws, key, orgs[limit-1].ID)
	}
	return page, err
}
