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
//
// Without multi-document transactions the writes are ordered so a crash
// or failure part way leaves no user half added: the scope first, then
// every profile, then the memberships that make the users visible in the
// scope. Each step is an idempotent upsert, so a retry of the same request
// completes it. The batches are bounded (writeChunk) so no one store
// command grows with the request.
func (s *Service) AddUsers(ctx context.Context, ws string, req AddUsersRequest) (map[string]ItemResult, error) {
	if err := req.Scope.validate(); err != nil {
		return nil, err
	}
	if err := s.ensureScope(ctx, ws, req.Scope, req.CreateFolder, req.CreateDocument); err != nil {
		return nil, err
	}
	now := s.nowMilli()
	profiles := make([]Profile, len(req.Users))
	memberships := make([]Membership, len(req.Users))
	for i, u := range req.Users {
		profiles[i] = u.Profile.withInitial()
		memberships[i] = Membership{MembershipKey: req.Scope.key(u.UserID), AccessRole: u.AccessRole, CreatedAt: now}
	}
	err := inChunks(profiles, func(chunk []Profile) error { return s.store.SaveUsers(ctx, ws, chunk, now) })
	if err != nil {
		return nil, err
	}
	if err := inChunks(memberships, func(chunk []Membership) error { return s.store.SaveMemberships(ctx, ws, chunk) }); err != nil {
		return nil, err
	}
	out := make(map[string]ItemResult, len(req.Users))
	for _, u := range req.Users {
		out[u.UserID] = succeeded(UserRef(ws, u.UserID), "User added.")
	}
	return out, nil
}
