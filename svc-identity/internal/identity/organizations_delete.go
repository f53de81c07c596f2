package identity

import "context"

// DeleteOrganizations removes each organization with everything in it:
// folders, documents, memberships, user groups and their members. Unknown
// organizations get success: false.
func (s *Service) DeleteOrganizations(ctx context.Context, ws string, orgIDs []string) (map[string]ItemResult, error) {
	out := make(map[string]ItemResult, len(orgIDs))
	for _, id := range orgIDs {
		found, err := s.store.DeleteOrganization(ctx, ws, id)
		if err != nil {
			return nil, err
		}
		ref := organizationRef(ws, id)
		if !found {
			out[id] = failed(ref, "Organization does not exist.")
			continue
		}
		out[id] = succeeded(ref, "Organization deleted.")
	}
	return out, nil
}
