package crdt

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"time"

	"github.com/opencollab/backend/pkg/events"
)

// isoMillis is JavaScript's Date.toISOString layout.
const isoMillis = "2006-01-02T15:04:05.000Z"

// View is editor data as get returns it.
type View struct {
	ID            string          `json:"id"` // the editor id
	Data          json.RawMessage `json:"data"`
	Type          string          `json:"type"`
	ContentKey    string          `json:"contentKey"`
	Update        string          `json:"update"` // base64 of the full Yjs update (v1)
	LastUpdate    string          `json:"lastUpdate"`
	LastUpdatedBy *string         `json:"lastUpdatedBy"`
	SessionID     *string         `json:"sessionId"` // always null: no editing session wrote it
}

// View renders r for get.
func (r Record) View() View {
	return View{
		ID: r.EditorID, Data: r.Data, Type: r.Type, ContentKey: r.ContentKey,
		Update:        base64.StdEncoding.EncodeToString(r.Update),
		LastUpdate:    r.LastUpdate.UTC().Format(isoMillis),
		LastUpdatedBy: optional(r.LastUpdatedBy),
	}
}

// eventData is the data of crdt.add_data and crdt.update_data events.
type eventData struct {
	ID            string          `json:"id"`
	Data          json.RawMessage `json:"data"`
	LastUpdatedBy *string         `json:"lastUpdatedBy"`
	SessionID     *string         `json:"sessionId"`
	LastUpdate    string          `json:"lastUpdate"`
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// publish sends the event of a write. The record is already saved: an
// error here means the event reached neither Redis nor the outbox.
func (s *Service) publish(ctx context.Context, ws, typ string, r Record) error {
	if s.onWrite != nil {
		s.onWrite(ctx, ws, Editor{OrganizationID: r.OrganizationID, DocumentID: r.DocumentID, EditorID: r.EditorID}, r.Update)
	}
	return s.publishRecord(ctx, ws, typ, r, "")
}

// PublishEdited publishes crdt.update_data for the editor's current
// content on behalf of an editing session (realtime edits, debounced by
// the caller): lastUpdatedBy is userID, sessionId the session.
func (s *Service) PublishEdited(ctx context.Context, ws string, ed Editor, userID, sessionID string) error {
	r, err := s.store.Find(ctx, ws, ed.OrganizationID, ed.DocumentID, ed.EditorID)
	if err != nil {
		return err
	}
	r.LastUpdatedBy = userID
	return s.publishRecord(ctx, ws, EventUpdate, r, sessionID)
}

func (s *Service) publishRecord(ctx context.Context, ws, typ string, r Record, sessionID string) error {
	if s.events == nil {
		return nil
	}
	data := eventData{
		ID: r.EditorID, Data: r.Data, LastUpdatedBy: optional(r.LastUpdatedBy), SessionID: optional(sessionID),
		LastUpdate: r.LastUpdate.UTC().Format(isoMillis),
	}
	ev, err := events.New(typ, EventSource, ws, r.OrganizationID, r.DocumentID, data)
	if err != nil {
		return err
	}
	if err := s.events.Publish(ctx, ev); err != nil {
		return fmt.Errorf("publish %s: %w", typ, err)
	}
	return nil
}

// lastUpdateTime truncates to what the store keeps (milliseconds).
func lastUpdateTime(t time.Time) time.Time { return t.UTC().Truncate(time.Millisecond) }
