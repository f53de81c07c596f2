package store

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// OrganizationUserIDs implements identity.MembershipStore with one query
// on the (workspaceId, organizationId, userId) index, read in userId
// order until limit distinct users were seen: the cursor is closed there,
// so an organization larger than limit costs limit users' memberships,
// not all of them. On the embedded store (FerretDB) the query scans the
// memberships collection, as every filter but an exact _id does.
func (s *Store) OrganizationUserIDs(ctx context.Context, ws, orgID string, limit int) ([]string, error) {
	if limit <= 0 {
		return []string{}, nil
	}
	opts := options.Find().SetProjection(bson.M{"_id": 0, "userId": 1}).SetSort(bson.D{{Key: "userId", Value: 1}})
	cur, err := s.members.Find(ctx, orgKey(ws, orgID), opts)
	if err != nil {
		return nil, fmt.Errorf("find in %s: %w", s.members.Name(), err)
	}
	defer func() { _ = cur.Close(ctx) }()
	out := []string{}
	for len(out) < limit && cur.Next(ctx) {
		var r membershipRecord
		if err := cur.Decode(&r); err != nil {
			return nil, fmt.Errorf("read %s: %w", s.members.Name(), err)
		}
		// Sorted by user: a user's further memberships follow their first.
		if len(out) == 0 || out[len(out)-1] != r.UserID {
			out = append(out, r.UserID)
		}
	}
	if err := cur.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", s.members.Name(), err)
	}
	return out, nil
}
