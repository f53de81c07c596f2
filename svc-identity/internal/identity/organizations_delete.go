package identity

import "context"

// DeleteOrganizations removes each organization with everything in it:
// folders, documents, memberships, user groups and their members, in
// chunks of writeChunk organizations, a few store commands each. Unknown
// organizations get success: false.
func (s *Service) DeleteOrganizations(ctx context.Context, ws string, orgIDs []string) (map[string]ItemResult, error) {
	found, err := deleteInChunks(orgIDs, func(chunk []string) ([]string, error) {
		return s.store.DeleteOrganizations(ctx, ws, chunk)
	})
	if err != nil {
		return nil, err
	}
	out := make(map[string]ItemResult, len(orgIDs))
	for _, id := range orgIDs {
		ref := organizationRef(ws, id)
		if !found[id] {
			out[id] = failed(ref, "Organization does not exist.")
			continue
		}
		out[id] = succeeded(ref, "Organization deleted.")
	}
	return out, nil
}
