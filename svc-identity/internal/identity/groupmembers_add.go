package identity

import (
	"context"

	"github.com/opencollab/backend/pkg/api"
)

// GroupMemberResult is the per-user outcome of adding users to or removing
// them from a user group.
type GroupMemberResult struct {
	Success bool   `json:"success"`
	GroupID string `json:"organizationUserGroupId"`
	Message string `json:"message"`
}

// AddGroupMembers puts users of the organization into a group. A user who
// is no member of the organization (at any level) gets success: false.
// Membership is read in one query before any write; the group members are
// written in idempotent chunks of writeChunk.
func (s *Service) AddGroupMembers(ctx context.Context, ws, orgID, groupID string, userIDs []string) (map[string]GroupMemberResult, error) {
	if err := s.mustHaveGroup(ctx, ws, orgID, groupID); err != nil {
		return nil, err
	}
	found, err := s.store.OrganizationMembersAmong(ctx, ws, orgID, userIDs)
	if err != nil {
		return nil, err
	}
	member := make(map[string]bool, len(found))
	for _, id := range found {
		member[id] = true
	}
	var add []string
	out := make(map[string]GroupMemberResult, len(userIDs))
	for _, userID := range userIDs {
		if !member[userID] {
			out[userID] = GroupMemberResult{GroupID: groupID, Message: "User does not exist in the organization."}
			continue
		}
		add = append(add, userID)
		out[userID] = GroupMemberResult{Success: true, GroupID: groupID, Message: "User added to the group."}
	}
	now := s.nowMilli()
	err = inChunks(add, func(chunk []string) error { return s.store.AddGroupMembers(ctx, ws, orgID, groupID, chunk, now) })
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (s *Service) mustHaveGroup(ctx context.Context, ws, orgID, groupID string) error {
	ok, err := s.store.GroupExists(ctx, ws, orgID, groupID)
	if err != nil {
		return err
	}
	if !ok {
		return api.Errorf(api.NotFound, "user group %s does not exist in organization %s", groupID, orgID)
	}
	return nil
}
