package store

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// membershipRecord stores an organization-level membership with the
// organization id as resourceId.
type membershipRecord struct {
	WorkspaceID    string `bson:"workspaceId"`
	OrganizationID string `bson:"organizationId"`
	ResourceType   string `bson:"resourceType"`
	ResourceID     string `bson:"resourceId"`
	UserID         string `bson:"userId"`
	AccessRole     string `bson:"accessRole"`
	ExpiresAt      *int64 `bson:"expiresAt,omitempty"`
	CreatedAt      int64  `bson:"createdAt"`
}

func (r membershipRecord) domain() identity.Membership {
	return identity.Membership{
		MembershipKey: identity.MembershipKey{
			OrganizationID: r.OrganizationID, Type: identity.ResourceType(r.ResourceType),
			ResourceID: r.ResourceID, UserID: r.UserID,
		},
		AccessRole: identity.Role(r.AccessRole), ExpiresAt: r.ExpiresAt, CreatedAt: r.CreatedAt,
	}
}

func membershipKey(ws string, k identity.MembershipKey) bson.D {
	return bson.D{
		{Key: "workspaceId", Value: ws}, {Key: "organizationId", Value: k.OrganizationID},
		{Key: "resourceType", Value: string(k.Type)}, {Key: "resourceId", Value: k.ResourceID},
		{Key: "userId", Value: k.UserID},
	}
}

// resourceFilter matches every membership of the given resources.
func resourceFilter(ws, orgID string, t identity.ResourceType, ids []string) bson.D {
	return append(orgKey(ws, orgID),
		bson.E{Key: "resourceType", Value: string(t)}, bson.E{Key: "resourceId", Value: bson.M{"$in": ids}})
}

// SaveMemberships implements identity.MembershipStore with bulkUpsert,
// idempotent like SaveUsers.
func (s *Store) SaveMemberships(ctx context.Context, ws string, ms []identity.Membership) error {
	items := make([]upsertItem, len(ms))
	for i, m := range ms {
		items[i] = upsertItem{key: membershipKey(ws, m.MembershipKey), update: membershipUpdate(m)}
	}
	return bulkUpsert(ctx, s.members, items)
}

func membershipUpdate(m identity.Membership) bson.M {
	set, onInsert := bson.M{}, bson.M{"createdAt": m.CreatedAt}
	if m.AccessRole != "" {
		set["accessRole"] = string(m.AccessRole)
	} else {
		onInsert["accessRole"] = string(identity.RoleEditor)
	}
	update := bson.M{"$setOnInsert": onInsert}
	if m.ExpiresAt != nil {
		set["expiresAt"] = *m.ExpiresAt
	} else {
		update["$unset"] = bson.M{"expiresAt": ""}
	}
	if len(set) > 0 {
		update["$set"] = set
	}
	return update
}

// GetMembership implements identity.MembershipStore.
func (s *Store) GetMembership(ctx context.Context, ws string, key identity.MembershipKey) (identity.Membership, error) {
	var r membershipRecord
	if err := findOne(ctx, s.members, membershipKey(ws, key), &r); err != nil {
		return identity.Membership{}, err
	}
	return r.domain(), nil
}

// MembersAt implements identity.MembershipStore with one query.
func (s *Store) MembersAt(ctx context.Context, ws string, at identity.MembershipKey, userIDs []string) ([]string, error) {
	return s.memberUserIDs(ctx, membersFilter(ws, at, userIDs))
}

// memberUserIDs is the user ids of the memberships filter matches.
func (s *Store) memberUserIDs(ctx context.Context, filter bson.D) ([]string, error) {
	return findStrings(ctx, s.members, filter, "userId", nil)
}

// SetMembershipRoles implements identity.MembershipStore with one read of
// the memberships that do not hold the role yet, then an update by _id of
// each (updateByID): one update of them all would scan the collection and
// still commit them one at a time on the embedded store.
func (s *Store) SetMembershipRoles(ctx context.Context, ws string, at identity.MembershipKey, userIDs []string, role identity.Role) error {
	filter := append(membersFilter(ws, at, userIDs), bson.E{Key: "accessRole", Value: bson.M{"$ne": string(role)}})
	recs, err := findAll[bson.M](ctx, s.members, filter, options.Find().SetProjection(bson.M{"_id": 1}))
	if err != nil {
		return err
	}
	set := bson.M{"$set": bson.M{"accessRole": string(role)}}
	updates := make([]idUpdate, len(recs))
	for i, r := range recs {
		updates[i] = idUpdate{id: r["_id"], update: set}
	}
	return updateByID(ctx, s.members, updates)
}

// membersFilter matches the memberships of at's resource held by userIDs.
func membersFilter(ws string, at identity.MembershipKey, userIDs []string) bson.D {
	return append(orgKey(ws, at.OrganizationID),
		bson.E{Key: "resourceType", Value: string(at.Type)}, bson.E{Key: "resourceId", Value: at.ResourceID},
		bson.E{Key: "userId", Value: bson.M{"$in": userIDs}})
}

// RemoveUsersFromOrganization implements identity.MembershipStore: one
// read of who has anything to remove, then one delete per collection.
func (s *Store) RemoveUsersFromOrganization(ctx context.Context, ws, orgID string, userIDs []string) ([]string, error) {
	filter := append(orgKey(ws, orgID), bson.E{Key: "userId", Value: bson.M{"$in": userIDs}})
	found, err := s.memberUserIDs(ctx, filter)
	if err != nil {
		return nil, err
	}
	inGroups, err := findStrings(ctx, s.groupMembers, filter, "userId", nil)
	if err != nil {
		return nil, err
	}
	found = append(found, inGroups...)
	if _, err := deleteMany(ctx, s.members, filter); err != nil {
		return nil, err
	}
	_, err = deleteMany(ctx, s.groupMembers, filter)
	return found, err
}

// DeleteMembershipsAt implements identity.MembershipStore: one read, one
// delete.
func (s *Store) DeleteMembershipsAt(ctx context.Context, ws string, at identity.MembershipKey, userIDs []string) ([]string, error) {
	filter := membersFilter(ws, at, userIDs)
	found, err := s.memberUserIDs(ctx, filter)
	if err != nil {
		return nil, err
	}
	_, err = deleteMany(ctx, s.members, filter)
	return found, err
}

// DeleteUserGrants implements identity.MembershipStore: one delete, a
// single scan on a store without an index for it.
func (s *Store) DeleteUserGrants(ctx context.Context, ws, userID string, refs []identity.ResourceRef) error {
	if len(refs) == 0 {
		return nil
	}
	or := make(bson.A, len(refs))
	for i, r := range refs {
		grant := bson.M{"resourceType": string(r.Type), "resourceId": r.ID}
		if r.OrganizationID != "" {
			grant["organizationId"] = r.OrganizationID
		}
		or[i] = grant
	}
	_, err := deleteMany(ctx, s.members, bson.D{{Key: "workspaceId", Value: ws}, {Key: "userId", Value: userID}, {Key: "$or", Value: or}})
	return err
}

// IsOrganizationMember implements identity.MembershipStore.
func (s *Store) IsOrganizationMember(ctx context.Context, ws, orgID, userID string) (bool, error) {
	return exists(ctx, s.members, append(orgKey(ws, orgID), bson.E{Key: "userId", Value: userID}))
}

// OrganizationMembersAmong implements identity.MembershipStore with one
// query.
func (s *Store) OrganizationMembersAmong(ctx context.Context, ws, orgID string, userIDs []string) ([]string, error) {
	return s.memberUserIDs(ctx, append(orgKey(ws, orgID), bson.E{Key: "userId", Value: bson.M{"$in": userIDs}}))
}

// DeleteMembership implements identity.MembershipStore.
func (s *Store) DeleteMembership(ctx context.Context, ws string, key identity.MembershipKey) (bool, error) {
	n, err := deleteMany(ctx, s.members, membershipKey(ws, key))
	return n > 0, err
}

// DeleteMemberships implements identity.MembershipStore.
func (s *Store) DeleteMemberships(ctx context.Context, ws string, t identity.ResourceType, resourceID, userID string) error {
	_, err := deleteMany(ctx, s.members, bson.D{
		{Key: "workspaceId", Value: ws}, {Key: "resourceType", Value: string(t)},
		{Key: "resourceId", Value: resourceID}, {Key: "userId", Value: userID},
	})
	return err
}

// RemoveFromOrganization implements identity.MembershipStore.
func (s *Store) RemoveFromOrganization(ctx context.Context, ws, orgID, userID string) (bool, error) {
	filter := append(orgKey(ws, orgID), bson.E{Key: "userId", Value: userID})
	memberships, err := deleteMany(ctx, s.members, filter)
	if err != nil {
		return false, err
	}
	inGroups, err := deleteMany(ctx, s.groupMembers, filter)
	return memberships+inGroups > 0, err
}

// ListMembers implements identity.MembershipStore with keyset paging on
// (resourceId, userId), the tail of the unique index.
func (s *Store) ListMembers(ctx context.Context, ws string, q identity.MemberQuery) ([]identity.Membership, error) {
	filter := append(orgKey(ws, q.OrganizationID), bson.E{Key: "resourceType", Value: string(q.Type)})
	user := bson.M{}
	if q.UserIDs != nil {
		user["$in"] = q.UserIDs
	}
	and := bson.A{bson.M{"$or": bson.A{
		bson.M{"expiresAt": bson.M{"$exists": false}},
		bson.M{"expiresAt": bson.M{"$gte": q.ActiveAt}},
	}}}
	switch {
	case q.ResourceID != "":
		filter = append(filter, bson.E{Key: "resourceId", Value: q.ResourceID})
		if q.After.UserID != "" {
			user["$gt"] = q.After.UserID
		}
	case q.After != (identity.MemberCursor{}):
		and = append(and, bson.M{"$or": bson.A{
			bson.M{"resourceId": bson.M{"$gt": q.After.ResourceID}},
			bson.M{"resourceId": q.After.ResourceID, "userId": bson.M{"$gt": q.After.UserID}},
		}})
	}
	if len(user) > 0 {
		filter = append(filter, bson.E{Key: "userId", Value: user})
	}
	filter = append(filter, bson.E{Key: "$and", Value: and})
	recs, err := findAll[membershipRecord](ctx, s.members, filter, pageOptions(q.Limit, "resourceId", "userId"))
	if err != nil {
		return nil, err
	}
	return membershipsOf(recs), nil
}

// UserMemberships implements identity.MembershipStore.
func (s *Store) UserMemberships(ctx context.Context, ws string, q identity.GrantQuery) ([]identity.Membership, error) {
	if len(q.UserIDs) == 0 {
		return nil, nil
	}
	resources := bson.A{bson.M{"resourceType": string(identity.ResourceOrganization)}}
	if len(q.FolderIDs) > 0 {
		resources = append(resources, bson.M{"resourceType": string(identity.ResourceFolder), "resourceId": bson.M{"$in": q.FolderIDs}})
	}
	if len(q.DocumentIDs) > 0 {
		resources = append(resources, bson.M{"resourceType": string(identity.ResourceDocument), "resourceId": bson.M{"$in": q.DocumentIDs}})
	}
	filter := append(orgKey(ws, q.OrganizationID),
		bson.E{Key: "userId", Value: bson.M{"$in": q.UserIDs}}, bson.E{Key: "$or", Value: resources})
	recs, err := findAll[membershipRecord](ctx, s.members, filter)
	if err != nil {
		return nil, err
	}
	return membershipsOf(recs), nil
}

func membershipsOf(recs []membershipRecord) []identity.Membership {
	out := make([]identity.Membership, len(recs))
	for i, r := range recs {
		out[i] = r.domain()
	}
	return out
}
