package store

import (
	"context"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/svc-identity/internal/identity"
)

func groupKey(ws, orgID, groupID string) bson.D {
	return append(orgKey(ws, orgID), bson.E{Key: "groupId", Value: groupID})
}

// SaveGroups implements identity.GroupStore: one read, an update by _id
// per distinct change, one insert of the new groups (idempotent).
func (s *Store) SaveGroups(ctx context.Context, ws string, gs []identity.Group, now int64) ([]string, error) {
	items := make([]upsertItem, len(gs))
	for i, g := range gs {
		set, onInsert := bson.M{"lastUpdated": now}, bson.M{"createdAt": now}
		if g.Name != nil {
			set["groupName"] = *g.Name
		} else {
			onInsert["groupName"] = ""
		}
		items[i] = upsertItem{key: groupKey(ws, g.OrganizationID, g.ID), update: bson.M{"$set": set, "$setOnInsert": onInsert}, stamp: "lastUpdated"}
	}
	fresh, err := updateExisting(ctx, s.groups, items)
	if err != nil {
		return nil, err
	}
	created := make([]string, len(fresh))
	for i, it := range fresh {
		created[i] = it.key[len(it.key)-1].Value.(string)
	}
	return created, insertFresh(ctx, s.groups, fresh)
}

// AddGroupMembers implements identity.GroupStore with bulkUpsert: members
// already in the group change nothing and cost no write.
func (s *Store) AddGroupMembers(ctx context.Context, ws, orgID, groupID string, userIDs []string, now int64) error {
	items := make([]upsertItem, len(userIDs))
	for i, id := range userIDs {
		items[i] = upsertItem{key: append(groupKey(ws, orgID, groupID), bson.E{Key: "userId", Value: id}),
			update: bson.M{"$setOnInsert": bson.M{"createdAt": now}}}
	}
	return bulkUpsert(ctx, s.groupMembers, items)
}

// GroupExists implements identity.GroupStore.
func (s *Store) GroupExists(ctx context.Context, ws, orgID, groupID string) (bool, error) {
	return exists(ctx, s.groups, groupKey(ws, orgID, groupID))
}

// RemoveGroupMember implements identity.GroupStore.
func (s *Store) RemoveGroupMember(ctx context.Context, ws, orgID, groupID, userID string) (bool, error) {
	n, err := deleteMany(ctx, s.groupMembers, append(groupKey(ws, orgID, groupID), bson.E{Key: "userId", Value: userID}))
	return n > 0, err
}

// RemoveAllGroupMembers implements identity.GroupStore. Only the members
// read are removed, so someone added meanwhile is neither removed nor
// reported.
func (s *Store) RemoveAllGroupMembers(ctx context.Context, ws, orgID, groupID string) ([]string, error) {
	members, err := s.ListGroupMembers(ctx, ws, orgID, []string{groupID})
	if err != nil || len(members) == 0 {
		return members, err
	}
	filter := append(groupKey(ws, orgID, groupID), bson.E{Key: "userId", Value: bson.M{"$in": members}})
	_, err = deleteMany(ctx, s.groupMembers, filter)
	return members, err
}

// ListGroupMembers implements identity.GroupStore: the distinct members of
// the groups, sorted.
func (s *Store) ListGroupMembers(ctx context.Context, ws, orgID string, groupIDs []string) ([]string, error) {
	filter := append(orgKey(ws, orgID), bson.E{Key: "groupId", Value: bson.M{"$in": groupIDs}})
	ids, err := findStrings(ctx, s.groupMembers, filter, "userId", nil)
	if err != nil {
		return nil, err
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}
