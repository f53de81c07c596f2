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
// One store call for the whole request (the request's limit bounds it):
// one read of who has something to remove and one delete per collection,
// each a scan on the embedded store whatever its size, so doing them per
// chunk only multiplied the scans. Then the revocations, written a chunk
// at a time and announced once (revoke). Every step is idempotent, so the
// same request again completes one that failed part way (users removed by
// the failed attempt then answer success: false).
func (s *Service) DeleteUsers(ctx context.Context, ws string, req DeleteUsersRequest) (map[string]ItemResult, error) {
	if err := req.Scope.validate(); err != nil {
		return nil, err
	}
	var removed []string
	var err error
	if req.Scope.isOrganization() {
		removed, err = s.store.RemoveUsersFromOrganization(ctx, ws, req.OrganizationID, req.UserIDs)
	} else {
		removed, err = s.store.DeleteMembershipsAt(ctx, ws, req.Scope.key(""), req.UserIDs)
	}
	if err != nil {
		return nil, err
	}
	revoked := make([]Revocation, len(req.UserIDs))
	for i, userID := range req.UserIDs {
		revoked[i] = req.Scope.revocation(userID)
	}
	if err := s.revoke(ctx, ws, revoked); err != nil {
		return nil, err
	}
	found := make(map[string]bool, len(removed))
	for _, id := range removed {
		found[id] = true
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
