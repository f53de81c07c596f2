package delivery

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
)

// Collection names. Pending messages live in the queue and move to the
// messages archive when finished, so looking for due work never reads the
// delivery history (FerretDB v1 answers most queries by a full scan).
const (
	queueColl    = "webhook_queue"
	messagesColl = "webhook_messages"
	attemptsColl = "webhook_attempts"
	outcomesColl = "webhook_attempt_outcomes"
	healthColl   = "webhook_endpoint_health"
	erasedColl   = "webhook_erased_users"
)

// Message states.
const (
	statusPending   = "pending"
	statusDelivered = "delivered"
	statusFailed    = "failed" // every attempt failed
	statusCancelled = "cancelled"
)

// Attempt states, as attempts/get shows them.
const (
	attemptSending   = "sending"
	attemptSucceeded = "succeeded"
	attemptFailed    = "failed"
)

// messageDoc is one event for one endpoint. In the queue its NextAttempt
// and NextAttemptAt are a cache of what the attempt and outcome records say
// (attempt.go); the payload is the default body, transformed at each
// attempt with the configuration then current.
type messageDoc struct {
	ID            string     `bson:"_id"` // eventId:endpointId, also the webhook-id
	WorkspaceID   string     `bson:"workspaceId"`
	EndpointID    string     `bson:"endpointId"`
	EventID       string     `bson:"eventId"`
	EventType     string     `bson:"eventType"`
	Payload       string     `bson:"payload"`
	Status        string     `bson:"status"`
	NextAttempt   int        `bson:"nextAttempt"` // 1-based number of the next attempt
	NextAttemptAt time.Time  `bson:"nextAttemptAt"`
	CreatedAt     time.Time  `bson:"createdAt"`
	UpdatedAt     time.Time  `bson:"updatedAt"`
	FinishedAt    *time.Time `bson:"finishedAt,omitempty"`
	Attempts      int        `bson:"attempts,omitempty"` // made, once finished
	Reason        string     `bson:"reason,omitempty"`   // why cancelled
}

// attemptDoc claims one attempt: inserted before the request is made and
// never changed (FerretDB v1 rewrites by scanning the whole collection, so
// the hot path only inserts). How the attempt ended is its outcomeDoc.
type attemptDoc struct {
	ID          string    `bson:"_id"` // messageId:attempt
	WorkspaceID string    `bson:"workspaceId"`
	EndpointID  string    `bson:"endpointId"`
	MessageID   string    `bson:"messageId"`
	EventType   string    `bson:"eventType"`
	Attempt     int       `bson:"attempt"`
	Owner       string    `bson:"owner"`
	StartedAt   time.Time `bson:"startedAt"`
	LeaseUntil  time.Time `bson:"leaseUntil"`
}

// outcomeDoc decides how an attempt ended. It is inserted once, by the
// owner with the response or by another worker declaring the attempt
// interrupted; whoever inserts it first decides.
type outcomeDoc struct {
	ID           string    `bson:"_id"` // the attempt id
	WorkspaceID  string    `bson:"workspaceId"`
	EndpointID   string    `bson:"endpointId"`
	MessageID    string    `bson:"messageId"`
	Attempt      int       `bson:"attempt"`
	StartedAt    time.Time `bson:"startedAt"` // the attempt's, for listing
	Succeeded    bool      `bson:"succeeded"`
	Interrupted  bool      `bson:"interrupted,omitempty"`
	StatusCode   *int      `bson:"statusCode,omitempty"`
	DurationMs   *int64    `bson:"durationMs,omitempty"`
	Error        string    `bson:"error,omitempty"`
	ResponseBody string    `bson:"responseBody,omitempty"` // the first KiB
	FinishedAt   time.Time `bson:"finishedAt"`
	Owner        string    `bson:"owner"`
}

// healthDoc marks an endpoint failing since FirstFailureAt with no success
// in between.
type healthDoc struct {
	ID             string    `bson:"_id"` // workspaceId:endpointId
	WorkspaceID    string    `bson:"workspaceId"`
	EndpointID     string    `bson:"endpointId"`
	FirstFailureAt time.Time `bson:"firstFailureAt"`
}

func attemptID(messageID string, n int) string { return fmt.Sprintf("%s:%d", messageID, n) }

// store keeps the delivery records. Single-record operations name the
// record by _id alone: on FerretDB v1 a lookup by _id plus another field
// measured several times slower than by _id alone (the extra condition is
// checked on every decoded document), while MongoDB answers both from the
// _id index. Records read by id are checked against the workspace in Go
// instead; ids embed random event and endpoint ids.
type store struct {
	queue    *mongo.Collection
	messages *mongo.Collection
	attempts *mongo.Collection
	outcomes *mongo.Collection
	health   *mongo.Collection
	erased   *mongo.Collection
}

func newStore(db *mongo.Database) *store {
	return &store{
		queue:    db.Collection(queueColl),
		messages: db.Collection(messagesColl),
		attempts: db.Collection(attemptsColl),
		outcomes: db.Collection(outcomesColl),
		health:   db.Collection(healthColl),
		erased:   db.Collection(erasedColl),
	}
}

func (st *store) ensureIndexes(ctx context.Context) error {
	if err := mongodb.EnsureIndexes(ctx, st.queue, mongo.IndexModel{
		Keys:    bson.D{{Key: "nextAttemptAt", Value: 1}},
		Options: options.Index().SetName("due"),
	}); err != nil {
		return err
	}
	if err := mongodb.EnsureIndexes(ctx, st.attempts, mongo.IndexModel{
		Keys: bson.D{
			{Key: "workspaceId", Value: 1}, {Key: "endpointId", Value: 1},
			{Key: "startedAt", Value: -1}, {Key: "_id", Value: -1},
		},
		Options: options.Index().SetName("by_endpoint"),
	}); err != nil {
		return err
	}
	return mongodb.EnsureIndexes(ctx, st.outcomes, mongo.IndexModel{
		Keys:    bson.D{{Key: "workspaceId", Value: 1}, {Key: "endpointId", Value: 1}, {Key: "startedAt", Value: -1}},
		Options: options.Index().SetName("by_endpoint"),
	})
}

// enqueue stores a new pending message; false when it is queued already
// (the event was handled before).
func (st *store) enqueue(ctx context.Context, m messageDoc) (bool, error) {
	return insertOnce(ctx, st.queue, m)
}

// dueMessages returns queued messages whose next attempt is due, leaving
// out the messages and endpoints given (those this replica is busy with).
// Unsorted: FerretDB would sort the whole queue in memory for each look,
// and every due message is taken within a few looks anyway (MongoDB walks
// the index in due order).
func (st *store) dueMessages(ctx context.Context, now time.Time, skipIDs, skipEndpoints []string, limit int) ([]messageDoc, error) {
	filter := bson.M{"nextAttemptAt": bson.M{"$lte": now}}
	if len(skipIDs) > 0 {
		filter["_id"] = bson.M{"$nin": skipIDs}
	}
	if len(skipEndpoints) > 0 {
		filter["endpointId"] = bson.M{"$nin": skipEndpoints}
	}
	cur, err := st.queue.Find(ctx, filter, options.Find().SetLimit(int64(limit)))
	if err != nil {
		return nil, fmt.Errorf("find due messages: %w", err)
	}
	var out []messageDoc
	if err := cur.All(ctx, &out); err != nil {
		return nil, fmt.Errorf("read due messages: %w", err)
	}
	return out, nil
}

// postpone moves the next look at a queued message to at. Best effort: a
// lost or stale write only makes a worker look earlier or later.
func (st *store) postpone(ctx context.Context, m messageDoc, at time.Time) error {
	_, err := st.queue.UpdateOne(ctx, bson.M{"_id": m.ID}, bson.M{"$set": bson.M{"nextAttemptAt": at, "updatedAt": at}})
	return wrap("postpone message", err)
}

// scheduleRetry records that attempt n failed and attempt n+1 is due at.
func (st *store) scheduleRetry(ctx context.Context, m messageDoc, n int, at, now time.Time) error {
	_, err := st.queue.UpdateOne(ctx, bson.M{"_id": m.ID},
		bson.M{"$set": bson.M{"nextAttempt": n + 1, "nextAttemptAt": at, "updatedAt": now}})
	return wrap("schedule retry", err)
}

// archive records a finished message: delivered, failed (after its last
// attempt) or cancelled. Delivered and failed follow from recorded outcomes
// and overwrite a cancellation that raced with the last attempt; a
// cancellation never overwrites them. The caller then dequeues it.
func (st *store) archive(ctx context.Context, m messageDoc, status, reason string, attempts int, now time.Time) error {
	m.Status, m.Reason, m.Attempts, m.UpdatedAt, m.FinishedAt = status, reason, attempts, now, &now
	inserted, err := insertOnce(ctx, st.messages, m)
	if err != nil || inserted || status == statusCancelled {
		return err
	}
	var old messageDoc
	if err := st.messages.FindOne(ctx, bson.M{"_id": m.ID}).Decode(&old); err != nil {
		return wrap("read archived message", err)
	}
	if old.Status != statusCancelled {
		return nil
	}
	_, err = st.messages.ReplaceOne(ctx, bson.M{"_id": m.ID}, m)
	return wrap("archive message", err)
}

// dequeue removes finished messages from the queue, in one command: on
// FerretDB each delete scans the queue, so deletes are batched.
func (st *store) dequeue(ctx context.Context, ids []string) error {
	_, err := st.queue.DeleteMany(ctx, bson.M{"_id": bson.M{"$in": ids}})
	return wrap("dequeue messages", err)
}

// claimAttempt inserts the attempt record; false when another worker
// holds that attempt already.
func (st *store) claimAttempt(ctx context.Context, a attemptDoc) (bool, error) {
	return insertOnce(ctx, st.attempts, a)
}

func (st *store) attempt(ctx context.Context, workspaceID, id string) (attemptDoc, error) {
	var a attemptDoc
	err := st.attempts.FindOne(ctx, bson.M{"_id": id}).Decode(&a)
	if err == nil && a.WorkspaceID != workspaceID {
		err = mongo.ErrNoDocuments
	}
	return a, wrap("read attempt", err)
}

// recordOutcome inserts o; false when the attempt's outcome was decided
// already.
func (st *store) recordOutcome(ctx context.Context, o outcomeDoc) (bool, error) {
	return insertOnce(ctx, st.outcomes, o)
}

// outcome returns the decided outcome of an attempt; found false if none.
func (st *store) outcome(ctx context.Context, workspaceID, id string) (o outcomeDoc, found bool, err error) {
	err = st.outcomes.FindOne(ctx, bson.M{"_id": id}).Decode(&o)
	if mongodb.IsNotFound(err) || (err == nil && o.WorkspaceID != workspaceID) {
		return outcomeDoc{}, false, nil
	}
	return o, err == nil, wrap("read outcome", err)
}

// markFailing starts a failure streak unless one is running and returns
// the streak's start.
func (st *store) markFailing(ctx context.Context, workspaceID, endpointID string, at time.Time) (time.Time, error) {
	id := workspaceID + ":" + endpointID
	if _, err := insertOnce(ctx, st.health, healthDoc{ID: id, WorkspaceID: workspaceID, EndpointID: endpointID, FirstFailureAt: at}); err != nil {
		return time.Time{}, err
	}
	var h healthDoc
	if err := st.health.FindOne(ctx, bson.M{"_id": id}).Decode(&h); err != nil {
		return time.Time{}, wrap("read endpoint health", err)
	}
	return h.FirstFailureAt, nil
}

// clearFailing ends an endpoint's failure streak.
func (st *store) clearFailing(ctx context.Context, workspaceID, endpointID string) error {
	_, err := st.health.DeleteOne(ctx, bson.M{"_id": workspaceID + ":" + endpointID})
	return wrap("clear endpoint health", err)
}

// insertOnce inserts doc; false without error when its _id exists. An
// insert against the unique _id is atomic on MongoDB and FerretDB alike.
func insertOnce(ctx context.Context, coll *mongo.Collection, doc any) (bool, error) {
	_, err := coll.InsertOne(ctx, doc)
	if mongodb.IsDuplicateKey(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("insert into %s: %w", coll.Name(), err)
	}
	return true, nil
}

func wrap(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", what, err)
}
