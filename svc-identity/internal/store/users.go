package store

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// userRecord is the part of a user record that is read back; the profile
// also holds photoUrl, color, textColor, plan, type, isAdmin, isReadOnly,
// isAnonymous, isGuest, extra (keys this service does not know), createdAt
// and lastUpdated.
type userRecord struct {
	UserID string `bson:"userId"`
	Name   string `bson:"name"`
	Email  string `bson:"email"`
}

// SaveUsers implements identity.UserStore with bulkUpsert (idempotent, so
// a retry after a failure part way completes it). A new user without an initial or a name gets the initial of
// its user id.
func (s *Store) SaveUsers(ctx context.Context, ws string, profiles []identity.Profile, now int64) error {
	items := make([]upsertItem, len(profiles))
	for i, p := range profiles {
		key := bson.D{{Key: "workspaceId", Value: ws}, {Key: "userId", Value: p.UserID}}
		items[i] = upsertItem{key: key, update: profileUpdate(p, now), stamp: "lastUpdated"}
	}
	return bulkUpsert(ctx, s.users, items)
}

// profileUpdate sets the fields p carries.
func profileUpdate(p identity.Profile, now int64) bson.M {
	set := bson.M{"lastUpdated": now}
	for field, v := range map[string]*string{
		"name": p.Name, "email": p.Email, "initial": p.Initial, "photoUrl": p.PhotoURL,
		"color": p.Color, "textColor": p.TextColor, "plan": p.Plan, "type": p.Type,
	} {
		if v != nil {
			set[field] = *v
		}
	}
	for field, v := range map[string]*bool{
		"isAdmin": p.IsAdmin, "isReadOnly": p.IsReadOnly, "isAnonymous": p.IsAnonymous, "isGuest": p.IsGuest,
	} {
		if v != nil {
			set[field] = *v
		}
	}
	metadataSet(set, "extra", p.Extra)
	onInsert := bson.M{"createdAt": now}
	if _, ok := set["initial"]; !ok {
		onInsert["initial"] = identity.Initials("", p.UserID)
	}
	return bson.M{"$set": set, "$setOnInsert": onInsert}
}

// GetUsers implements identity.UserStore.
func (s *Store) GetUsers(ctx context.Context, ws string, userIDs []string) (map[string]identity.UserSummary, error) {
	out := make(map[string]identity.UserSummary, len(userIDs))
	if len(userIDs) == 0 {
		return out, nil
	}
	filter := bson.D{{Key: "workspaceId", Value: ws}, {Key: "userId", Value: bson.M{"$in": userIDs}}}
	recs, err := findAll[userRecord](ctx, s.users, filter,
		options.Find().SetProjection(bson.M{"userId": 1, "name": 1, "email": 1}))
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		out[r.UserID] = identity.UserSummary{UserID: r.UserID, Name: r.Name, Email: r.Email}
	}
	return out, nil
}
