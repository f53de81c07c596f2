package migration

import (
	"context"
	"errors"

	"github.com/opencollab/backend/pkg/api"
)

// View is a migration as the status operation reports it. Error is set
// only for a failed migration.
type View struct {
	MigrationID string `json:"migrationId"`
	Status      Status `json:"status"`
	Error       string `json:"error,omitempty"`
}

// Status reports the state of migration id of the workspace's
// organization; NOT_FOUND for an unknown id or one of another workspace or
// organization.
func (s *Service) Status(ctx context.Context, workspaceID, orgID, id string) (View, error) {
	r, err := s.store.find(ctx, workspaceID, orgID, id)
	if errors.Is(err, errNotFound) {
		return View{}, api.Errorf(api.NotFound, "migration %q not found", id)
	}
	if err != nil {
		return View{}, err
	}
	v := View{MigrationID: r.ID, Status: r.Status}
	if r.Status == Failed {
		v.Error = r.Error
	}
	return v, nil
}
