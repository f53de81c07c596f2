// Package events carries domain events between services on Redis Streams.
//
// A Publisher appends events to the stream of its service ("events:<source>")
// and, when Redis cannot take them, keeps them in the service's own `outbox`
// collection until RunRelay moves them on, so losing Redis loses no event.
// A Consumer reads streams through a consumer group and acknowledges an event
// only after its handler returned nil. Delivery is at-least-once: handlers
// must be idempotent by Event.ID.
package events

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Event is one domain event as it travels on a stream.
type Event struct {
	ID             string          `json:"id"`   // unique (random), consumers dedupe on it
	Type           string          `json:"type"` // e.g. "activity.add"
	WorkspaceID    string          `json:"workspaceId"`
	OrganizationID string          `json:"organizationId,omitempty"`
	DocumentID     string          `json:"documentId,omitempty"`
	Source         string          `json:"source"`     // publishing service, e.g. "activity"
	OccurredAt     int64           `json:"occurredAt"` // epoch ms
	Data           json.RawMessage `json:"data"`       // the record as the API returns it
}

// idPrefix makes event ids recognisable in logs and outbox documents.
const idPrefix = "ev_"

// streamPrefix names the stream of each publishing service.
const streamPrefix = "events:"

// New builds an event with a fresh random ID and OccurredAt set to now.
// data is encoded as JSON (a json.RawMessage is taken as is).
func New(typ, source, workspaceID, orgID, docID string, data any) (Event, error) {
	if typ == "" || source == "" {
		return Event{}, errors.New("events: type and source are required")
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return Event{}, fmt.Errorf("events: encode %s data: %w", typ, err)
	}
	return Event{
		ID:             idPrefix + rand.Text(),
		Type:           typ,
		WorkspaceID:    workspaceID,
		OrganizationID: orgID,
		DocumentID:     docID,
		Source:         source,
		OccurredAt:     time.Now().UnixMilli(),
		Data:           raw,
	}, nil
}

// Stream is the stream a source publishes on: "events:" + source.
func Stream(source string) string { return streamPrefix + source }

// validate refuses events that could not be deduplicated or routed.
func (e Event) validate() error {
	if e.ID == "" || e.Type == "" {
		return fmt.Errorf("events: event %q of type %q: id and type are required", e.ID, e.Type)
	}
	return nil
}
