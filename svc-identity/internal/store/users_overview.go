package store

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// CountUserMemberships implements identity.UserOverviewStore on the
// (workspaceId, organizationId, userId) index.
func (s *Store) CountUserMemberships(ctx context.Context, ws, orgID, userID string, t identity.ResourceType, activeAt int64) (int64, error) {
	filter := append(orgKey(ws, orgID),
		bson.E{Key: "userId", Value: userID},
		bson.E{Key: "resourceType", Value: string(t)},
		bson.E{Key: "$or", Value: bson.A{
			bson.M{"expiresAt": bson.M{"$exists": false}},
			bson.M{"expiresAt": bson.M{"$gte": activeAt}},
		}})
	n, err := s.members.CountDocuments(ctx, filter)
	if err != nil {
		return 0, fmt.Errorf("count in %s: %w", s.members.Name(), err)
	}
	return n, nil
}
