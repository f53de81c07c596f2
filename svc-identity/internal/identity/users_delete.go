package identity

import "context"

// DeleteUsersRequest is /v1/users/delete.
type DeleteUsersRequest struct {
	Scope
	UserIDs []string
}

// DeleteUsers removes users from the scope. At organization level that is
// every membership in the organization (organization, folders, documents)
// and every group membership; at folder or document level, that one
// membership. A user with nothing to remove gets success: false.
//
// Per chunk of writeChunk users: one read of who has something to remove,
// one delete per collection, then the revocations of the chunk, recorded
// and announced as one batch (revoke). Every step
// is idempotent, so the same request again completes one that failed part
// way (users removed by the failed attempt then answer success: false).
func (s *Service) DeleteUsers(ctx context.Context, ws string, req DeleteUsersRequest) (map[string]ItemResult, error) {
	if err := req.Scope.validate(); err != nil {
		return nil, err
	}
	found := map[string]bool{}
	err := inChunks(req.UserIDs, func(chunk []string) error {
		var removed []string
		var err error
		if req.Scope.isOrganization() {
			removed, err = s.store.RemoveUsersFromOrganization(ctx, ws, req.OrganizationID, chunk)
		} else {
			removed, err = s.store.DeleteMembershipsAt(ctx, ws, req.Scope.key(""), chunk)
		}
		if err != nil {
			return err
		}
		for _, id := range removed {
			found[id] = true
		}
		revoked := make([]Revocation, len(chunk))
		for i, userID := range chunk {
			revoked[i] = req.Scope.revocation(userID)
		}
		return s.revoke(ctx, ws, revoked)
	})
	if err != nil {
		return nil, err
	}
	out := make(map[string]ItemResult, len(req.UserIDs))
	for _, userID := range req.UserIDs {
		if found[userID] {
			out[userID] = ItemResult{Success: true, Message: "User deleted."}
		} else {
			out[userID] = ItemResult{Success: false, Message: "User does not exist."}
		}
	}
	return out, nil
}
