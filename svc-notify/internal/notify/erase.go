package notify

import (
	"context"

	"github.com/opencollab/backend/pkg/api"
)

// EraseUsers removes every user's notifications and configuration (GDPR
// erasure, driven by svc-identity's job). Idempotent: a second run finds
// nothing.
func (s *Service) EraseUsers(ctx context.Context, ws string, userIDs []string) (int, error) {
	if ws == "" || len(userIDs) == 0 {
		return 0, api.Errorf(api.InvalidArgument, "workspaceId and userIds are required")
	}
	total := 0
	for _, u := range userIDs {
		n, err := s.store.EraseUser(ctx, ws, u)
		if err != nil {
			return total, err
		}
		total += n
	}
	return total, nil
}
