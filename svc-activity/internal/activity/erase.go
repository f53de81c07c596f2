package activity

import (
	"context"

	"github.com/opencollab/backend/pkg/api"
)

// UserEraseStore removes one user's records (GDPR erasure).
type UserEraseStore interface {
	UserRecords(ctx context.Context, ws, userID string) ([]Record, error)
	EraseUser(ctx context.Context, ws, userID string) (int64, error)
}

// EraseUsers deletes every activity record the users acted in (GDPR
// erasure, driven by svc-identity's job). The activity.delete events go
// out first, so svc-memory drops the judgments (and their vectors) derived
// from them even when this run is cut short before the delete: the job
// calls again and the events repeat (consumers are idempotent). The
// events name the records only: they also reach webhook endpoints, and an
// erased user's data must not go out with them.
func (s *Service) EraseUsers(ctx context.Context, ws string, userIDs []string) (int64, error) {
	if ws == "" || len(userIDs) == 0 {
		return 0, api.Errorf(api.InvalidArgument, "workspaceId and userIds are required")
	}
	var total int64
	for _, u := range userIDs {
		recs, err := s.store.UserRecords(ctx, ws, u)
		if err != nil {
			return total, err
		}
		if err := s.publish(ctx, ws, EventDelete, withoutPersonalData(recs)); err != nil {
			return total, err
		}
		n, err := s.store.EraseUser(ctx, ws, u)
		if err != nil {
			return total, err
		}
		total += n
	}
	return total, nil
}

// withoutPersonalData keeps what names a record (organization, document,
// id, feature and action type, time) and drops the user and every data
// field.
func withoutPersonalData(recs []Record) []Record {
	out := make([]Record, len(recs))
	for i, r := range recs {
		out[i] = Record{OrganizationID: r.OrganizationID, DocumentID: r.DocumentID, ID: r.ID,
			FeatureType: r.FeatureType, ActionType: r.ActionType, Timestamp: r.Timestamp}
	}
	return out
}
