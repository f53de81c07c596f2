package identity

import "context"

// AddOrganizations creates each organization, or updates the name, disabled
// flag and metadata of one that exists.
func (s *Service) AddOrganizations(ctx context.Context, ws string, orgs []OrganizationInput) (map[string]ItemResult, error) {
	now := s.nowMilli()
	out := make(map[string]ItemResult, len(orgs))
	for _, o := range orgs {
		created, err := s.store.SaveOrganization(ctx, ws, o, now)
		if err != nil {
			return nil, err
		}
		msg := "Organization updated."
		if created {
			msg = "Organization added."
		}
		out[o.ID] = succeeded(organizationRef(ws, o.ID), msg)
	}
	return out, nil
}
