package identity

import "context"

// AddGroups creates user groups, or renames ones that exist. The
// organization must exist unless createOrg is set.
func (s *Service) AddGroups(ctx context.Context, ws, orgID string, createOrg bool, groups []Group) (map[string]ItemResult, error) {
	if err := s.organizationReady(ctx, ws, orgID, createOrg); err != nil {
		return nil, err
	}
	now := s.nowMilli()
	out := make(map[string]ItemResult, len(groups))
	for _, g := range groups {
		g.OrganizationID = orgID
		created, err := s.store.SaveGroup(ctx, ws, g, now)
		if err != nil {
			return nil, err
		}
		msg := "User group updated."
		if created {
			msg = "User group added."
		}
		out[g.ID] = succeeded(groupRef(ws, orgID, g.ID), msg)
	}
	return out, nil
}
