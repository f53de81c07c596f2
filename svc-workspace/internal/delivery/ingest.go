package delivery

import (
	"context"
	"fmt"

	"github.com/opencollab/backend/pkg/events"
)

// messageID names the message of one event for one endpoint. Being derived
// from both, a redelivered event maps onto the messages stored the first
// time, and it is the webhook-id the receiver deduplicates on.
func messageID(eventID, endpointID string) string { return eventID + ":" + endpointID }

// ingest is the event handler: one pending message per matching endpoint.
// The event is acknowledged only when every message is stored; a retry
// after a partial failure finds the stored ones and adds the rest. An event
// redelivered after its message finished queues the message again; its
// next look finds the recorded outcomes and archives it again without
// sending anything (attempt.go).
func (s *Service) ingest(ctx context.Context, e events.Event) error {
	if e.WorkspaceID == "" || e.Type == ExhaustedEventType {
		return nil // nothing to route / never taken from a stream
	}
	cfg, targets, err := s.targets.DeliveryTargets(ctx, e.WorkspaceID, e.Type)
	if err != nil {
		return fmt.Errorf("delivery targets of %s: %w", e.ID, err)
	}
	if !cfg.IsEnabled || len(targets) == 0 {
		return nil
	}
	added := false
	for _, t := range targets {
		m, err := s.newMessage(e, t.Endpoint.ID)
		if err != nil {
			// The event data cannot be encoded; retrying cannot help.
			s.logger.ErrorContext(ctx, "dropping undeliverable event", "eventId", e.ID, "type", e.Type, "error", err)
			return nil
		}
		inserted, err := s.store.enqueue(ctx, m)
		if err != nil {
			return err
		}
		added = added || inserted
	}
	if added {
		s.signal()
	}
	return nil
}

func (s *Service) newMessage(e events.Event, endpointID string) (messageDoc, error) {
	id := messageID(e.ID, endpointID)
	payload, err := buildBody(e, id)
	if err != nil {
		return messageDoc{}, err
	}
	return s.pending(id, e.WorkspaceID, endpointID, e.ID, e.Type, payload), nil
}

// pending is a new message, its first attempt due now.
func (s *Service) pending(id, workspaceID, endpointID, eventID, eventType string, payload []byte) messageDoc {
	now := s.now()
	return messageDoc{
		ID: id, WorkspaceID: workspaceID, EndpointID: endpointID, EventID: eventID, EventType: eventType,
		Payload: string(payload), Status: statusPending, NextAttempt: 1, NextAttemptAt: now,
		CreatedAt: now, UpdatedAt: now,
	}
}
