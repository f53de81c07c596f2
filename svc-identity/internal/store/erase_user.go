package store

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// EraseUser deletes the user's memberships (every organization, folder
// and document), group memberships and profile in the workspace. Each step
// is a plain delete, so a run cut short is finished by the next.
func (s *Store) EraseUser(ctx context.Context, ws, userID string) error {
	filter := bson.M{"workspaceId": ws, "userId": userID}
	for _, coll := range []*mongo.Collection{s.members, s.groupMembers, s.users} {
		if _, err := deleteMany(ctx, coll, filter); err != nil {
			return err
		}
	}
	return nil
}
