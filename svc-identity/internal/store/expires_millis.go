package store

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// secondsBelow separates the two units a stored expiresAt may have: before
// grants were kept in epoch milliseconds (as the interface says) they were
// Unix seconds. Every millisecond time after 1973 is above it and every
// second time before the year 5138 below it.
const secondsBelow = 100_000_000_000

// ConvertExpiresToMillis rewrites memberships whose expiresAt is still in
// Unix seconds to epoch milliseconds. Each row is updated only while it
// still holds the seconds value it was read with, so running it again, or
// beside a service writing grants, converts nothing twice.
func (s *Store) ConvertExpiresToMillis(ctx context.Context) (int, error) {
	filter := bson.M{"expiresAt": bson.M{"$gt": 0, "$lt": secondsBelow}}
	converted := 0
	for {
		rows, err := findAll[struct {
			ID        any   `bson:"_id"`
			ExpiresAt int64 `bson:"expiresAt"`
		}](ctx, s.members, filter, options.Find().SetLimit(500).SetProjection(bson.M{"expiresAt": 1}))
		if err != nil {
			return converted, err
		}
		for _, r := range rows {
			res, err := s.members.UpdateOne(ctx, bson.M{"_id": r.ID, "expiresAt": r.ExpiresAt},
				bson.M{"$set": bson.M{"expiresAt": r.ExpiresAt * 1000}})
			if err != nil {
				return converted, fmt.Errorf("convert expiresAt: %w", err)
			}
			converted += int(res.ModifiedCount)
		}
		if len(rows) < 500 {
			return converted, nil
		}
	}
}
