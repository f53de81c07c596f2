package identity

import "context"

// RemoveGroupMembers takes users out of a group, or everyone when all is
// set. A user who is not in the group gets success: false.
func (s *Service) RemoveGroupMembers(ctx context.Context, ws, orgID, groupID string, userIDs []string, all bool) (map[string]GroupMemberResult, error) {
	if err := s.mustHaveGroup(ctx, ws, orgID, groupID); err != nil {
		return nil, err
	}
	out := map[string]GroupMemberResult{}
	if all {
		removed, err := s.store.RemoveAllGroupMembers(ctx, ws, orgID, groupID)
		if err != nil {
			return nil, err
		}
		for _, userID := range removed {
			out[userID] = GroupMemberResult{Success: true, GroupID: groupID, Message: "User removed from the group."}
		}
		return out, nil
	}
	for _, userID := range userIDs {
		found, err := s.store.RemoveGroupMember(ctx, ws, orgID, groupID, userID)
		if err != nil {
			return nil, err
		}
		if !found {
			out[userID] = GroupMemberResult{GroupID: groupID, Message: "User is not in the group."}
			continue
		}
		out[userID] = GroupMemberResult{Success: true, GroupID: groupID, Message: "User removed from the group."}
	}
	return out, nil
}
