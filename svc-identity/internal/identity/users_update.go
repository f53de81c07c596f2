package identity

import (
	"context"
	"errors"
)

// UpdateUsersRequest is /v2/users/update (and v1, whose users carry no
// AccessRole).
type UpdateUsersRequest struct {
	Scope
	Users []UserInput
}

// UpdateUsers changes the profile fields sent and the role at the scope of
// users who are members there; anyone else gets success: false.
func (s *Service) UpdateUsers(ctx context.Context, ws string, req UpdateUsersRequest) (map[string]ItemResult, error) {
	if err := req.Scope.validate(); err != nil {
		return nil, err
	}
	member := make(map[string]bool, len(req.Users))
	for _, u := range req.Users {
		_, err := s.store.GetMembership(ctx, ws, req.Scope.key(u.UserID))
		if err != nil && !errors.Is(err, ErrNotFound) {
			return nil, err
		}
		member[u.UserID] = err == nil
	}
	now := s.nowMilli()
	out := make(map[string]ItemResult, len(req.Users))
	for _, u := range req.Users {
		ref := UserRef(ws, u.UserID)
		if !member[u.UserID] {
			out[u.UserID] = failed(ref, "User does not exist.")
			continue
		}
		if err := s.store.SaveUsers(ctx, ws, []Profile{u.Profile.withInitial()}, now); err != nil {
			return nil, err
		}
		if u.AccessRole != "" {
			if err := s.store.SetMembershipRole(ctx, ws, req.Scope.key(u.UserID), u.AccessRole); err != nil {
				return nil, err
			}
		}
		out[u.UserID] = succeeded(ref, "User updated.")
	}
	return out, nil
}
