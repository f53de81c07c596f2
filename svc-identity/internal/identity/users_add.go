package identity

import "context"

// UserInput is one user of users/add or users/update: the profile plus the
// role at the request's scope ("" keeps the stored role; editor when new).
type UserInput struct {
	Profile
	AccessRole Role
}

// AddUsersRequest is /v2/users/add.
type AddUsersRequest struct {
	Scope
	CreateFolder   bool
	CreateDocument bool
	Users          []UserInput
}

// AddUsers upserts each user's profile and makes the user a member of the
// scope: the organization (contact list and access to its non-restricted
// documents), one folder or one document.
func (s *Service) AddUsers(ctx context.Context, ws string, req AddUsersRequest) (map[string]ItemResult, error) {
	if err := req.Scope.validate(); err != nil {
		return nil, err
	}
	if err := s.ensureScope(ctx, ws, req.Scope, req.CreateFolder, req.CreateDocument); err != nil {
		return nil, err
	}
	now := s.nowMilli()
	out := make(map[string]ItemResult, len(req.Users))
	for _, u := range req.Users {
		if err := s.store.SaveUser(ctx, ws, u.Profile.withInitial(), now); err != nil {
			return nil, err
		}
		m := Membership{MembershipKey: req.Scope.key(u.UserID), AccessRole: u.AccessRole, CreatedAt: now}
		if err := s.store.SaveMembership(ctx, ws, m); err != nil {
			return nil, err
		}
		out[u.UserID] = succeeded(UserRef(ws, u.UserID), "User added.")
	}
	return out, nil
}
