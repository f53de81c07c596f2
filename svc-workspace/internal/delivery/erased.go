package delivery

import (
	"context"
	"errors"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// The erased users of a workspace are recorded before an erasure looks for
// the messages naming them, and read before every attempt. An event
// published just before the erasure can reach the queue after the
// erasure's look; the attempt then finds its user erased and cancels the
// message instead of sending it. One record per workspace, read by _id:
// erasures are rare and the list is short.
type erasedDoc struct {
	ID    string   `bson:"_id"` // workspaceId
	Users []string `bson:"users"`
}

// recordErased adds userIDs to ws's erased users.
func (st *store) recordErased(ctx context.Context, ws string, userIDs []string) error {
	_, err := st.erased.UpdateOne(ctx, bson.M{"_id": ws},
		bson.M{"$addToSet": bson.M{"users": bson.M{"$each": userIDs}}}, options.UpdateOne().SetUpsert(true))
	return wrap("record erased users", err)
}

// erasedUsers returns ws's erased users (none when nobody was erased).
func (st *store) erasedUsers(ctx context.Context, ws string) ([]string, error) {
	var d erasedDoc
	err := st.erased.FindOne(ctx, bson.M{"_id": ws}).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return nil, nil
	}
	if err != nil {
		return nil, wrap("read erased users", err)
	}
	return d.Users, nil
}

// namesErased reports whether m's payload names an erased user of its
// workspace.
func (s *Service) namesErased(ctx context.Context, m messageDoc) (bool, error) {
	erased, err := s.store.erasedUsers(ctx, m.WorkspaceID)
	if err != nil || len(erased) == 0 {
		return false, err
	}
	return names(m.Payload, erased), nil
}

// cancelErased cancels m with its payload redacted and takes its queued
// copy, which still holds the payload, out of the queue at once.
func (s *Service) cancelErased(ctx context.Context, m messageDoc) error {
	m.Payload = redacted(m.EventType)
	if err := s.cancel(ctx, m, erasedReason); err != nil {
		return err
	}
	return s.store.dequeue(ctx, []string{m.ID})
}
