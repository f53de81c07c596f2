package activity

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/opencollab/backend/pkg/events"
)

// View is a record as /v2/activities/get returns it. It lives here, not in
// httpapi, because every event carries the same shape as its data.
type View struct {
	ID                         string          `json:"id"`
	FeatureType                string          `json:"featureType"`
	ActionType                 string          `json:"actionType"`
	ActionUser                 json.RawMessage `json:"actionUser"`
	TargetEntityID             string          `json:"targetEntityId,omitempty"`
	TargetSubEntityID          string          `json:"targetSubEntityId,omitempty"`
	Changes                    json.RawMessage `json:"changes,omitempty"`
	EntityData                 json.RawMessage `json:"entityData,omitempty"`
	EntityTargetData           json.RawMessage `json:"entityTargetData,omitempty"`
	DisplayMessageTemplate     string          `json:"displayMessageTemplate,omitempty"`
	DisplayMessageTemplateData json.RawMessage `json:"displayMessageTemplateData,omitempty"`
	ActionIcon                 string          `json:"actionIcon,omitempty"`
	Metadata                   Metadata        `json:"metadata"`
	Timestamp                  int64           `json:"timestamp"`
	Immutable                  bool            `json:"immutable"`
	IsActivityResolverUsed     bool            `json:"isActivityResolverUsed"`
}

// Metadata locates a record. The hosted product also returns the API key;
// this service never stores it, so it is omitted.
type Metadata struct {
	DocumentID     string `json:"documentId"`
	OrganizationID string `json:"organizationId"`
}

// View returns the wire shape of r.
func (r Record) View() View {
	return View{
		ID: r.ID, FeatureType: r.FeatureType, ActionType: r.ActionType, ActionUser: r.ActionUser,
		TargetEntityID: r.TargetEntityID, TargetSubEntityID: r.TargetSubEntityID,
		Changes: r.Changes, EntityData: r.EntityData, EntityTargetData: r.EntityTargetData,
		DisplayMessageTemplate: r.DisplayMessageTemplate, DisplayMessageTemplateData: r.DisplayMessageTemplateData,
		ActionIcon: r.ActionIcon,
		Metadata:   Metadata{DocumentID: r.DocumentID, OrganizationID: r.OrganizationID},
		Timestamp:  r.Timestamp, Immutable: r.Immutable, IsActivityResolverUsed: r.IsActivityResolverUsed,
	}
}

// Views returns the wire shapes of recs, never nil (an empty page is []).
func Views(recs []Record) []View {
	out := make([]View, len(recs))
	for i, r := range recs {
		out[i] = r.View()
	}
	return out
}

// publish sends one event of type typ per record, all in one call. The
// records are already saved: an error here means the events reached
// neither Redis nor the outbox, and the caller's retry is idempotent.
func (s *Service) publish(ctx context.Context, ws, typ string, recs []Record) error {
	if len(recs) == 0 {
		return nil
	}
	evs := make([]events.Event, len(recs))
	for i, r := range recs {
		ev, err := events.New(typ, EventSource, ws, r.OrganizationID, r.DocumentID, r.View())
		if err != nil {
			return err
		}
		evs[i] = ev
	}
	if err := s.events.Publish(ctx, evs...); err != nil {
		return fmt.Errorf("publish %d %s events: %w", len(evs), typ, err)
	}
	return nil
}
