package store

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// EraseUser implements notify.UserEraseStore. A notification addressed to
// several users goes for all of them: its text names the erased user (as
// it does when they are its withheld recipient).
// Each notification is deleted with its feed entries (deleteNotification),
// so a run cut short is finished by the next.
func (m *Mongo) EraseUser(ctx context.Context, ws, userID string) (int, error) {
	filter := bson.M{"workspaceId": ws, "$or": bson.A{
		bson.M{"actionUserId": userID}, bson.M{"visibleTo": userID}, bson.M{"notifyUserIds": userID},
		bson.M{"withheldRecipient": userID},
	}}
	cur, err := m.notifications.Find(ctx, filter, options.Find().SetProjection(bson.M{"organizationId": 1, "id": 1}))
	if err != nil {
		return 0, fmt.Errorf("find the user's notifications: %w", err)
	}
	var found []struct {
		OrganizationID string `bson:"organizationId"`
		ID             string `bson:"id"`
	}
	if err := cur.All(ctx, &found); err != nil {
		return 0, fmt.Errorf("read the user's notifications: %w", err)
	}
	for _, n := range found {
		if err := m.deleteNotification(ctx, ws, n.OrganizationID, n.ID); err != nil {
			return 0, err
		}
	}
	res, err := m.configs.DeleteMany(ctx, bson.M{"workspaceId": ws, "userId": userID})
	if err != nil {
		return 0, fmt.Errorf("delete the user's notification config: %w", err)
	}
	return len(found) + int(res.DeletedCount), nil
}
