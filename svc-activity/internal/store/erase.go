package store

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/svc-activity/internal/activity"
)

// userFilter selects every record the user acted in, in any organization.
func userFilter(ws, userID string) bson.D {
	return bson.D{{Key: "workspaceId", Value: ws}, {Key: "actionUserId", Value: userID}}
}

// UserRecords implements activity.UserEraseStore.
func (m *Mongo) UserRecords(ctx context.Context, ws, userID string) ([]activity.Record, error) {
	return m.find(ctx, userFilter(ws, userID), nil)
}

// EraseUser implements activity.UserEraseStore: immutable records go too
// (erasure overrides immutability).
func (m *Mongo) EraseUser(ctx context.Context, ws, userID string) (int64, error) {
	res, err := m.coll.DeleteMany(ctx, userFilter(ws, userID))
	if err != nil {
		return 0, fmt.Errorf("erase the user's activity records: %w", err)
	}
	return res.DeletedCount, nil
}
