package delivery

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// erasedReason is why a pending message was cancelled by a GDPR erasure.
const erasedReason = "a user it names was erased"

// EraseUsers is svc-workspace's part of a GDPR erasure
// (/internal/userdata/erase): every webhook message of the workspace whose
// payload names one of userIDs (a JSON string or object key equal to the
// id: userId, actionUser, from, notifyUsers, …) loses its payload, replaced by a redaction
// notice, and the receiver's answers recorded for it are dropped; a
// message still pending is cancelled, so the data is not sent after the
// erasure, nor is a message queued after it (erased.go). It returns the
// messages redacted and is idempotent.
func (s *Service) EraseUsers(ctx context.Context, ws string, userIDs []string) (int64, error) {
	if len(userIDs) == 0 {
		return 0, nil
	}
	// Recorded first: a message queued after the look below is caught by
	// its attempt (namesErased).
	if err := s.store.recordErased(ctx, ws, userIDs); err != nil {
		return 0, err
	}
	pending, err := s.store.naming(ctx, s.store.queue, ws, userIDs)
	if err != nil {
		return 0, err
	}
	for _, m := range pending {
		m.Payload = redacted(m.EventType)
		if err := s.cancel(ctx, m, erasedReason); err != nil {
			return 0, err
		}
	}
	if len(pending) > 0 {
		// At once rather than with the worker's batch: the queued copy
		// still holds the payload.
		if err := s.store.dequeue(ctx, ids(pending)); err != nil {
			return 0, err
		}
	}
	archived, err := s.store.naming(ctx, s.store.messages, ws, userIDs)
	if err != nil {
		return 0, err
	}
	if err := s.store.redact(ctx, archived); err != nil {
		return 0, err
	}
	// A finished message may still have its queued copy (the worker
	// dequeues in batches): count each message once.
	all := append(ids(pending), ids(archived)...)
	slices.Sort(all)
	return int64(len(slices.Compact(all))), nil
}

// redacted is the payload kept of an erased message: its type only.
func redacted(eventType string) string {
	b, _ := json.Marshal(map[string]any{"type": eventType, "redacted": erasedReason})
	return string(b)
}

func ids(ms []messageDoc) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.ID
	}
	return out
}

// naming returns the workspace's messages in coll whose payload holds one
// of userIDs as a JSON string. The database narrows by a pattern on the
// payload text; the decoded payload decides (a longer id or a key with the
// same text does not count).
func (st *store) naming(ctx context.Context, coll *mongo.Collection, ws string, userIDs []string) ([]messageDoc, error) {
	quoted := make([]string, len(userIDs))
	for i, u := range userIDs {
		b, _ := json.Marshal(u)
		quoted[i] = regexp.QuoteMeta(string(b))
	}
	cur, err := coll.Find(ctx, bson.M{"workspaceId": ws, "payload": bson.M{"$regex": strings.Join(quoted, "|")}})
	if err != nil {
		return nil, wrap("find messages naming erased users", err)
	}
	var docs []messageDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, wrap("read messages naming erased users", err)
	}
	return slices.DeleteFunc(docs, func(m messageDoc) bool { return !names(m.Payload, userIDs) }), nil
}

// names reports whether payload holds one of userIDs as a string value
// or an object key. A user id that is also a field name of the payloads
// (say "type") redacts more messages than it needs to; nothing is missed.
func names(payload string, userIDs []string) bool {
	var v any
	if json.Unmarshal([]byte(payload), &v) != nil {
		return false
	}
	var walk func(any) bool
	walk = func(v any) bool {
		switch t := v.(type) {
		case string:
			return slices.Contains(userIDs, t)
		case []any:
			return slices.ContainsFunc(t, walk)
		case map[string]any:
			for k, e := range t {
				// Maps keyed by user id (notifyUsers) name the user too.
				if slices.Contains(userIDs, k) || walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}

// redact replaces the payloads of archived messages and drops the
// receivers' answers recorded for them (they may echo the payload).
func (st *store) redact(ctx context.Context, ms []messageDoc) error {
	if len(ms) == 0 {
		return nil
	}
	for _, m := range ms {
		if _, err := st.messages.UpdateOne(ctx, bson.M{"_id": m.ID}, bson.M{"$set": bson.M{"payload": redacted(m.EventType)}}); err != nil {
			return wrap("redact message", err)
		}
	}
	_, err := st.outcomes.UpdateMany(ctx, bson.M{"messageId": bson.M{"$in": ids(ms)}}, bson.M{"$unset": bson.M{"responseBody": ""}})
	return wrap(fmt.Sprintf("drop the answers to %d redacted messages", len(ms)), err)
}
