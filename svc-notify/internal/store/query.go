package store

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/svc-notify/internal/notify"
)

// matchFilter selects the workspace's notifications matching f, plus the
// extra conditions (ANDed, so two conditions on one field do not clash).
func matchFilter(ws string, f notify.Filter, and bson.A) bson.D {
	d := bson.D{{Key: "workspaceId", Value: ws}, {Key: "organizationId", Value: f.OrganizationID}}
	if f.DocumentID != "" {
		d = append(d, bson.E{Key: "documentId", Value: f.DocumentID})
	}
	if f.LocationID != "" {
		d = append(d, bson.E{Key: "locationId", Value: f.LocationID})
	}
	if len(f.IDs) > 0 {
		d = append(d, bson.E{Key: "id", Value: bson.D{{Key: "$in", Value: f.IDs}}})
	}
	if f.RecipientID != "" {
		and = append(and, recipient(f.RecipientID)...)
	}
	if len(and) > 0 {
		d = append(d, bson.E{Key: "$and", Value: and})
	}
	return d
}

// listFilter is matchFilter plus q's view and the keyset condition.
func listFilter(ws string, q notify.ListQuery) bson.D {
	var and bson.A
	switch {
	case q.VisibleTo != "":
		and = append(and, bson.D{{Key: "visibleTo", Value: bson.D{{Key: "$in", Value: bson.A{notify.Everyone, q.VisibleTo}}}}})
	case q.ForYou != "":
		and = append(append(and, recipient(q.ForYou)...),
			bson.D{{Key: "$or", Value: bson.A{
				bson.D{{Key: "readByUserIds", Value: bson.D{{Key: "$ne", Value: q.ForYou}}}},
				bson.D{{Key: "persistReadForUsers", Value: q.ForYou}},
			}}})
	}
	if q.After != nil {
		and = append(and, after(*q.After, q.Ascending)...)
	}
	return matchFilter(ws, q.Filter, and)
}

// recipient is "userID is a direct recipient". The audience (visibleTo)
// holds the recipients, Everyone, which is never a user id, and the users
// of a verified notifyAll, audienceOnly those of them who are not
// recipients: the by_audience index serves the first condition, the
// second only drops those entries (absent on most notifications).
func recipient(userID string) bson.A {
	return bson.A{
		bson.D{{Key: "visibleTo", Value: userID}},
		bson.D{{Key: "audienceOnly", Value: bson.D{{Key: "$ne", Value: userID}}}},
	}
}

// after is the keyset condition "strictly after c" in (timestamp, id)
// order. The plain range on timestamp gives the index scan its start, so a
// page reads from the cursor on instead of skipping the earlier pages; the
// $or then drops the entries of c's own millisecond up to c.
func after(c notify.Cursor, ascending bool) bson.A {
	inclusive, strict := "$lte", "$lt"
	if ascending {
		inclusive, strict = "$gte", "$gt"
	}
	return bson.A{
		bson.D{{Key: "timestamp", Value: bson.D{{Key: inclusive, Value: c.Timestamp}}}},
		bson.D{{Key: "$or", Value: bson.A{
			bson.D{{Key: "timestamp", Value: bson.D{{Key: strict, Value: c.Timestamp}}}},
			bson.D{{Key: "id", Value: bson.D{{Key: strict, Value: c.ID}}}},
		}}},
	}
}

// timeOrder sorts by (timestamp, id), newest first unless ascending.
func timeOrder(ascending bool) bson.D {
	dir := -1
	if ascending {
		dir = 1
	}
	return bson.D{{Key: "timestamp", Value: dir}, {Key: "id", Value: dir}}
}
