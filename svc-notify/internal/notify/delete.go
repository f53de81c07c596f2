package notify

import (
	"context"

	"github.com/opencollab/backend/pkg/api"
)

// deleteBatch bounds the ids of one delete command.
const deleteBatch = 500

// Delete deletes the notifications matching f. The filter must narrow the
// organization: organizationId alone would wipe all of it, which no client
// means to do by leaving out a field. Requested ids that match nothing get
// success false.
func (s *Service) Delete(ctx context.Context, ws string, f Filter) (map[string]Outcome, error) {
	if f.DocumentID == "" && f.LocationID == "" && f.RecipientID == "" && len(f.IDs) == 0 {
		return nil, api.Errorf(api.InvalidArgument,
			"give at least one of documentId, locationId, userId, notificationIds (organizationId alone would delete every notification of the organization)")
	}
	matched, err := s.store.MatchNotifications(ctx, ws, f)
	if err != nil {
		return nil, err
	}
	out := make(map[string]Outcome, len(matched)+len(f.IDs))
	for _, id := range f.IDs {
		out[id] = Outcome{Message: msgNotMatched}
	}
	for start := 0; start < len(matched); start += deleteBatch {
		batch := matched[start:min(start+deleteBatch, len(matched))]
		ids := make([]string, 0, len(batch))
		for _, n := range batch {
			ids = append(ids, n.ID)
		}
		if err := s.store.DeleteNotifications(ctx, ws, f.OrganizationID, ids); err != nil {
			s.publish(ctx, EventDelete, ws, matched[:start]) // what is gone is announced
			return nil, err
		}
		for _, id := range ids {
			out[id] = Outcome{Success: true, Message: msgDeleted}
		}
	}
	s.publish(ctx, EventDelete, ws, matched)
	return out, nil
}
