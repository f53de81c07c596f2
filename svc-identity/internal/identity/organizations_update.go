package identity

import "context"

// UpdateOrganizations changes organizations that exist; others get
// success: false.
func (s *Service) UpdateOrganizations(ctx context.Context, ws string, orgs []OrganizationInput) (map[string]ItemResult, error) {
	now := s.nowMilli()
	out := make(map[string]ItemResult, len(orgs))
	for _, o := range orgs {
		found, err := s.store.UpdateOrganization(ctx, ws, o, now)
		if err != nil {
			return nil, err
		}
		ref := organizationRef(ws, o.ID)
		if !found {
			out[o.ID] = failed(ref, "Organization does not exist.")
			continue
		}
		out[o.ID] = succeeded(ref, "Organization updated.")
	}
	return out, nil
}
