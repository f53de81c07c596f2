package store

import (
	"context"
	"fmt"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// EraseUser implements notify.UserEraseStore. A notification addressed to
// several users goes for all of them: its text names the erased user (as
// it does when they are its withheld recipient). One whose audience the
// user is only in (notify.Notification.AudienceUsers: not involved, the
// text does not name them) stays for the others and loses the user: their
// id leaves its audience and read state (leaveAudience).
// Each notification is deleted with its feed entries (deleteNotification),
// so a run cut short is finished by the next.
func (m *Mongo) EraseUser(ctx context.Context, ws, userID string) (int, error) {
	filter := bson.M{"workspaceId": ws, "$or": bson.A{
		bson.M{"actionUserId": userID}, bson.M{"visibleTo": userID}, bson.M{"notifyUserIds": userID},
		bson.M{"withheldRecipient": userID},
	}}
	// Whole records: whether the user is involved is notify's decision
	// (Involved), which reads the headline data.
	cur, err := m.notifications.Find(ctx, filter)
	if err != nil {
		return 0, fmt.Errorf("find the user's notifications: %w", err)
	}
	var found []notificationDoc
	if err := cur.All(ctx, &found); err != nil {
		return 0, fmt.Errorf("read the user's notifications: %w", err)
	}
	for _, d := range found {
		if involves(d, userID) {
			err = m.deleteNotification(ctx, ws, d.OrganizationID, d.NotificationID)
		} else {
			err = m.leaveAudience(ctx, d.Key, userID)
		}
		if err != nil {
			return 0, err
		}
	}
	res, err := m.configs.DeleteMany(ctx, bson.M{"workspaceId": ws, "userId": userID})
	if err != nil {
		return 0, fmt.Errorf("delete the user's notification config: %w", err)
	}
	return len(found) + int(res.DeletedCount), nil
}

// involves reports whether d concerns userID beyond its audience. A
// record that does not decode counts as involving them: erasure deletes
// it, as it did before audiences were kept, rather than stop there.
func involves(d notificationDoc, userID string) bool {
	n, err := d.domain()
	return err != nil || slices.Contains(n.Involved(), userID)
}

// leaveAudience takes userID out of the notification's audience and read
// state, by key (one write, an index seek on either store), with a new
// revision so a concurrent update notices.
func (m *Mongo) leaveAudience(ctx context.Context, key, userID string) error {
	defer m.notificationLocks.Lock(key)()
	_, err := m.notifications.UpdateOne(ctx, bson.D{{Key: "_id", Value: key}}, bson.D{
		{Key: "$pull", Value: bson.D{
			{Key: "audienceUsers", Value: userID}, {Key: "audienceOnly", Value: userID}, {Key: "visibleTo", Value: userID},
			{Key: "readByUserIds", Value: userID}, {Key: "persistReadForUsers", Value: userID},
		}},
		{Key: "$set", Value: bson.D{{Key: "rev", Value: newRev()}}},
	})
	return wrap("take the user out of a notification's audience", err)
}
