package delivery

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-workspace/internal/webhook"
)

// Page sizes of attempts/get.
const (
	DefaultAttemptsLimit = 50
	MaxAttemptsLimit     = 250
)

// Attempt is one delivery attempt as attempts/get shows it.
type Attempt struct {
	ID         string
	MessageID  string
	EventType  string
	Attempt    int
	Status     string // sending, succeeded, failed
	StatusCode *int
	DurationMs *int64
	Error      *string
	Timestamp  time.Time // when the attempt started
}

// AttemptsPage is one page of an endpoint's attempts, newest first.
// Iterator is "" on the last page.
type AttemptsPage struct {
	Attempts []Attempt
	Iterator string
	Done     bool
}

// cursor is the position after the last attempt of a page. Iterators
// carry no workspace: every query is bounded to the caller's workspace and
// endpoint, so a foreign iterator can only skip within the caller's data.
type cursor struct {
	StartedAt int64  `json:"t"` // epoch ms
	ID        string `json:"i"`
}

// Attempts lists the attempts of an endpoint of the workspace, newest
// first; NOT_FOUND for an unknown endpoint.
func (s *Service) Attempts(ctx context.Context, workspaceID, endpointID string, limit int, iterator string) (AttemptsPage, error) {
	if limit == 0 {
		limit = DefaultAttemptsLimit
	}
	if limit < 1 || limit > MaxAttemptsLimit {
		return AttemptsPage{}, api.Errorf(api.InvalidArgument, "limit must be between 1 and %d", MaxAttemptsLimit)
	}
	after, err := decodeCursor(iterator)
	if err != nil {
		return AttemptsPage{}, err
	}
	if _, _, err := s.targets.DeliveryTarget(ctx, workspaceID, endpointID); err != nil {
		if errors.Is(err, webhook.ErrNotFound) {
			return AttemptsPage{}, api.Errorf(api.NotFound, "endpoint %s not found", endpointID)
		}
		return AttemptsPage{}, err
	}
	docs, err := s.store.attemptsOf(ctx, workspaceID, endpointID, after, limit+1)
	if err != nil {
		return AttemptsPage{}, err
	}
	page := AttemptsPage{Done: len(docs) <= limit}
	docs = docs[:min(len(docs), limit)]
	if len(docs) == 0 {
		return page, nil
	}
	outcomes, err := s.store.outcomesBetween(ctx, workspaceID, endpointID, docs[len(docs)-1].StartedAt, docs[0].StartedAt)
	if err != nil {
		return AttemptsPage{}, err
	}
	for _, d := range docs {
		page.Attempts = append(page.Attempts, view(d, outcomes[d.ID]))
	}
	if !page.Done {
		last := docs[len(docs)-1]
		page.Iterator = encodeCursor(cursor{StartedAt: last.StartedAt.UnixMilli(), ID: last.ID})
	}
	return page, nil
}

// view is an attempt as listed: sending until its outcome is recorded.
func view(a attemptDoc, out *outcomeDoc) Attempt {
	v := Attempt{
		ID: a.ID, MessageID: a.MessageID, EventType: a.EventType, Attempt: a.Attempt,
		Status: attemptSending, Timestamp: a.StartedAt,
	}
	if out == nil {
		return v
	}
	v.Status, v.StatusCode, v.DurationMs = attemptFailed, out.StatusCode, out.DurationMs
	if out.Succeeded {
		v.Status = attemptSucceeded
	}
	if out.Error != "" {
		v.Error = &out.Error
	}
	return v
}

// outcomesBetween reads the outcomes of an endpoint's attempts started
// within [from, to], by attempt id: one query for a page of attempts.
func (st *store) outcomesBetween(ctx context.Context, workspaceID, endpointID string, from, to time.Time) (map[string]*outcomeDoc, error) {
	cur, err := st.outcomes.Find(ctx, bson.M{
		"workspaceId": workspaceID, "endpointId": endpointID,
		"startedAt": bson.M{"$gte": from, "$lte": to},
	}, options.Find().SetProjection(bson.M{"responseBody": 0}))
	if err != nil {
		return nil, fmt.Errorf("find outcomes: %w", err)
	}
	var docs []outcomeDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("read outcomes: %w", err)
	}
	out := make(map[string]*outcomeDoc, len(docs))
	for i := range docs {
		out[docs[i].ID] = &docs[i]
	}
	return out, nil
}

// attemptsOf reads up to limit attempts of an endpoint after c, newest
// first (startedAt, then id, descending).
func (st *store) attemptsOf(ctx context.Context, workspaceID, endpointID string, c *cursor, limit int) ([]attemptDoc, error) {
	filter := bson.M{"workspaceId": workspaceID, "endpointId": endpointID}
	if c != nil {
		t := time.UnixMilli(c.StartedAt).UTC()
		filter["$or"] = bson.A{
			bson.M{"startedAt": bson.M{"$lt": t}},
			bson.M{"startedAt": t, "_id": bson.M{"$lt": c.ID}},
		}
	}
	cur, err := st.attempts.Find(ctx, filter, options.Find().
		SetSort(bson.D{{Key: "startedAt", Value: -1}, {Key: "_id", Value: -1}}).
		SetLimit(int64(limit)))
	if err != nil {
		return nil, fmt.Errorf("find attempts: %w", err)
	}
	var out []attemptDoc
	if err := cur.All(ctx, &out); err != nil {
		return nil, fmt.Errorf("read attempts: %w", err)
	}
	return out, nil
}

func encodeCursor(c cursor) string {
	raw, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(raw)
}

func decodeCursor(s string) (*cursor, error) {
	if s == "" {
		return nil, nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	var c cursor
	if err == nil {
		err = json.Unmarshal(raw, &c)
	}
	if err != nil || c.ID == "" {
		return nil, api.Errorf(api.InvalidArgument, "iterator is not valid; pass the iterator of the previous page")
	}
	return &c, nil
}
