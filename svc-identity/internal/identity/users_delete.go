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
func (s *Service) DeleteUsers(ctx context.Context, ws string, req DeleteUsersRequest) (map[string]ItemResult, error) {
	if err := req.Scope.validate(); err != nil {
		return nil, err
	}
	out := make(map[string]ItemResult, len(req.UserIDs))
	for _, userID := range req.UserIDs {
		var found bool
		var err error
		if req.Scope.isOrganization() {
			found, err = s.store.RemoveFromOrganization(ctx, ws, req.OrganizationID, userID)
		} else {
			found, err = s.store.DeleteMembership(ctx, ws, req.Scope.key(userID))
		}
		if err != nil {
			return nil, err
		}
		if err := s.revoke(ctx, ws, req.Scope.revocation(userID)); err != nil {
			return nil, err
		}
		if found {
			out[userID] = ItemResult{Success: true, Message: "User deleted."}
		} else {
			out[userID] = ItemResult{Success: false, Message: "User does not exist."}
		}
	}
	return out, nil
}
