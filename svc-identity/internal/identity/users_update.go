package identity

import "context"

// UpdateUsersRequest is /v2/users/update (and v1, whose users carry no
// AccessRole).
type UpdateUsersRequest struct {
	Scope
	Users []UserInput
}

// UpdateUsers changes the profile fields sent and the role at the scope of
// users who are members there; anyone else gets success: false.
//
// Every membership is read before the first write, in one query (the
// request's limit bounds it), then the profiles are written with one
// SaveUsers (one read of the stored profiles, then an update by _id of
// each that changes), then the roles, one SetMembershipRoles per distinct
// role (only the role changes, so a grant's expiry stays). On the embedded
// store a query on anything but _id scans the collection whatever its
// size, so the reads are not split into chunks: each chunk would scan
// again. Both writes are idempotent, so the same request again completes
// one that failed part way. A user listed twice is updated in the order
// listed (one round of writes per repetition).
func (s *Service) UpdateUsers(ctx context.Context, ws string, req UpdateUsersRequest) (map[string]ItemResult, error) {
	if err := req.Scope.validate(); err != nil {
		return nil, err
	}
	ids := make([]string, len(req.Users))
	for i, u := range req.Users {
		ids[i] = u.UserID
	}
	found, err := s.store.MembersAt(ctx, ws, req.Scope.key(""), ids)
	if err != nil {
		return nil, err
	}
	member := make(map[string]bool, len(found))
	for _, id := range found {
		member[id] = true
	}
	out := make(map[string]ItemResult, len(req.Users))
	var members []UserInput
	for _, u := range req.Users {
		ref := UserRef(ws, u.UserID)
		if !member[u.UserID] {
			out[u.UserID] = failed(ref, "User does not exist.")
			continue
		}
		members = append(members, u)
		out[u.UserID] = succeeded(ref, "User updated.")
	}
	for _, round := range repetitions(members) {
		if err := s.updateMembers(ctx, ws, req.Scope, round); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// updateMembers writes the profiles, then the roles, of users who are
// members at sc and appear once in users.
func (s *Service) updateMembers(ctx context.Context, ws string, sc Scope, users []UserInput) error {
	profiles := make([]Profile, len(users))
	for i, u := range users {
		profiles[i] = u.Profile.withInitial()
	}
	if err := s.store.SaveUsers(ctx, ws, profiles, s.nowMilli()); err != nil {
		return err
	}
	byRole := map[Role][]string{}
	var roles []Role
	for _, u := range users {
		if u.AccessRole == "" {
			continue
		}
		if byRole[u.AccessRole] == nil {
			roles = append(roles, u.AccessRole)
		}
		byRole[u.AccessRole] = append(byRole[u.AccessRole], u.UserID)
	}
	for _, role := range roles {
		if err := s.store.SetMembershipRoles(ctx, ws, sc.key(""), byRole[role], role); err != nil {
			return err
		}
	}
	return nil
}

// repetitions splits users into rounds in which each user appears once:
// the first listing of every user, then the second, and so on, so a batch
// write never holds two changes of one user.
func repetitions(users []UserInput) [][]UserInput {
	var rounds [][]UserInput
	seen := map[string]int{}
	for _, u := range users {
		n := seen[u.UserID]
		seen[u.UserID] = n + 1
		if n == len(rounds) {
			rounds = append(rounds, nil)
		}
		rounds[n] = append(rounds[n], u)
	}
	return rounds
}
