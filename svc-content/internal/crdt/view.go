package crdt

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"time"

	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// isoMillis is JavaScript's Date.toISOString layout.
const isoMillis = "2006-01-02T15:04:05.000Z"

// View is editor data as get returns it.
type View struct {
	ID         string          `json:"id"` // the editor id
	Data       json.RawMessage `json:"data"`
	Type       string          `json:"type"`
	ContentKey string          `json:"contentKey"`
	// Update is base64 of the document as one Yjs update (v1): the whole
	// state, or what a client at the request's stateVector lacks.
	Update string `json:"update"`
	// StateVector is base64 of the document's Yjs state vector (format
	// yjs only).
	StateVector   string  `json:"stateVector,omitempty"`
	LastUpdate    string  `json:"lastUpdate"`
	LastUpdatedBy *string `json:"lastUpdatedBy"`
	SessionID     *string `json:"sessionId"` // always null: no editing session wrote it
}

// view renders the editor's document for get.
func (c current) view(q Query) (View, error) {
	st := c.latest()
	v := View{
		ID: st.EditorID, Type: st.Type, ContentKey: st.ContentKey,
		LastUpdate: st.LastUpdate.UTC().Format(isoMillis), LastUpdatedBy: optional(st.LastUpdatedBy),
	}
	var update, sv []byte
	var err error
	if len(c.log) == 0 && st.Data != nil && q.Format != FormatProseMirror {
		// The state as compaction stored it, with its content.
		v.Data, update = st.Data, st.Update
		if len(q.StateVector) > 0 {
			update, err = yjs.DiffUpdate(st.Update, q.StateVector)
		}
		if err == nil && q.Format == FormatYjs {
			sv, err = yjs.EncodeStateVectorFromUpdate(st.Update)
		}
	} else {
		var d *yjs.Doc
		if d, err = loadDoc(st.Update, c.log); err != nil {
			return View{}, err
		}
		if v.Data, err = readContent(d, st, q.Format); err != nil {
			return View{}, err
		}
		update, err = d.EncodeStateAsUpdate(q.StateVector)
		sv = d.StateVector()
	}
	if err != nil {
		return View{}, fmt.Errorf("crdt: encode editor %s: %w", st.EditorID, err)
	}
	v.Update = base64.StdEncoding.EncodeToString(update)
	if q.Format == FormatYjs {
		v.StateVector = base64.StdEncoding.EncodeToString(sv)
	}
	return v, nil
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

// published is what an event tells of a write.
type published struct {
	ed         Editor
	data       json.RawMessage
	lastUpdate time.Time
	by         string
}

// publish tells of a REST write: the realtime hook gets the update, the
// event the content. The write is already saved: an error here means the
// event reached neither Redis nor the outbox.
func (s *Service) publish(ctx context.Context, ws, typ string, p published, update []byte) error {
	if s.onWrite != nil && len(update) > 0 {
		s.onWrite(ctx, ws, p.ed, update)
	}
	return s.publishEvent(ctx, ws, typ, p, "")
}

func (s *Service) publishEvent(ctx context.Context, ws, typ string, p published, sessionID string) error {
	if s.events == nil {
		return nil
	}
	data := eventData{
		ID: p.ed.EditorID, Data: p.data, LastUpdatedBy: optional(p.by), SessionID: optional(sessionID),
		LastUpdate: p.lastUpdate.UTC().Format(isoMillis),
	}
	ev, err := events.New(typ, EventSource, ws, p.ed.OrganizationID, p.ed.DocumentID, data)
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
