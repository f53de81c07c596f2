package delivery

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// exhaustedData is the data of a message.attempt.exhausted body.
type exhaustedData struct {
	MessageID   string      `json:"messageId"`
	EndpointID  string      `json:"endpointId"`
	EventID     string      `json:"eventId"`
	EventType   string      `json:"eventType"`
	Attempts    int         `json:"attempts"`
	LastAttempt lastAttempt `json:"lastAttempt"`
}

type lastAttempt struct {
	StatusCode *int    `json:"statusCode"`
	Error      *string `json:"error"`
	Timestamp  string  `json:"timestamp"`
}

// emitExhausted queues message.attempt.exhausted for the workspace's
// endpoints that list it in their filterTypes explicitly (an endpoint
// taking all events is not sent delivery reports it never asked for). Never
// for a failed report itself, so reports cannot cascade. Idempotent: the
// report's id derives from the failed message.
func (s *Service) emitExhausted(ctx context.Context, m messageDoc, out outcomeDoc) error {
	if m.EventType == ExhaustedEventType {
		return nil
	}
	cfg, targets, err := s.targets.DeliveryTargets(ctx, m.WorkspaceID, ExhaustedEventType)
	if err != nil {
		return fmt.Errorf("targets of %s: %w", ExhaustedEventType, err)
	}
	if !cfg.IsEnabled {
		return nil
	}
	data := exhaustedData{
		MessageID: m.ID, EndpointID: m.EndpointID, EventID: m.EventID, EventType: m.EventType, Attempts: out.Attempt,
		LastAttempt: lastAttempt{StatusCode: out.StatusCode, Timestamp: out.FinishedAt.UTC().Format(time.RFC3339Nano)},
	}
	if out.Error != "" {
		data.LastAttempt.Error = &out.Error
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return err
	}
	eventID := "exh_" + m.ID
	for _, t := range targets {
		if !slices.Contains(t.Endpoint.FilterTypes, ExhaustedEventType) {
			continue
		}
		id := messageID(eventID, t.Endpoint.ID)
		payload, err := json.Marshal(body{
			Event: ExhaustedEventType, ActionType: "attemptExhausted", Source: "delivery",
			Data: raw, WebhookID: id, Platform: platform,
		})
		if err != nil {
			return err
		}
		report := s.pending(id, m.WorkspaceID, t.Endpoint.ID, eventID, ExhaustedEventType, payload)
		if _, err := s.store.enqueue(ctx, report); err != nil {
			return err
		}
	}
	s.signal()
	return nil
}
