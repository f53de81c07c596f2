package activity

import (
	"context"
	"fmt"

	"github.com/opencollab/backend/pkg/activityevent"
	"github.com/opencollab/backend/pkg/events"
)

// View is a record as /v2/activities/get returns it and as every event
// carries it as its data: the contract its consumers read.
type View = activityevent.Record

// Metadata locates a record.
type Metadata = activityevent.Metadata

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
