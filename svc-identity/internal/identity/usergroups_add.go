package identity

import "context"

// AddGroups creates user groups, or renames ones that exist. The
// organization must exist unless createOrg is set. The groups are written
// in chunks of writeChunk (one read, an update per distinct change, one
// insert), idempotent, so the same request again completes one that failed
// part way.
func (s *Service) AddGroups(ctx context.Context, ws, orgID string, createOrg bool, groups []Group) (map[string]ItemResult, error) {
	if err := s.organizationReady(ctx, ws, orgID, createOrg); err != nil {
		return nil, err
	}
	now := s.nowMilli()
	created := map[string]bool{}
	err := inChunks(groups, func(chunk []Group) error {
		in := make([]Group, len(chunk))
		for i, g := range chunk {
			g.OrganizationID = orgID
			in[i] = g
		}
		ids, err := s.store.SaveGroups(ctx, ws, in, now)
		for _, id := range ids {
			created[id] = true
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make(map[string]ItemResult, len(groups))
	for _, g := range groups {
		msg := "User group updated."
		if created[g.ID] {
			msg = "User group added."
		}
		out[g.ID] = succeeded(groupRef(ws, orgID, g.ID), msg)
	}
	return out, nil
}
