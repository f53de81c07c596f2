package migration

import (
	"context"
	"errors"
	"maps"

	"github.com/opencollab/backend/pkg/events"
)

// finish ends r as completed or failed (with reason), releases its
// document locks and lease chain and publishes the outcome. The lease is
// renewed first, so only the worker still holding it can end the
// migration.
func (w *Worker) finish(ctx context.Context, l *lease, r record, status Status, reason string) {
	if err := w.renew(ctx, l); err != nil {
		w.stopped(ctx, l, err)
		return
	}
	ok, err := w.svc.store.finish(ctx, l.id, w.id, status, reason, w.svc.now())
	if err != nil || !ok {
		w.stopped(ctx, l, errors.Join(errLeaseLost, err))
		return
	}
	// Cleanup is best effort: a lock left behind is seen as stale once its
	// migration is finished, and leftover claims are never read again.
	cleanup := context.WithoutCancel(ctx)
	w.svc.store.unlock(cleanup, r.ID, r.source(), r.target())
	if err := w.svc.store.dropClaims(cleanup, r.ID); err != nil {
		w.svc.logger.WarnContext(ctx, "migration: removing claims failed", "migrationId", r.ID, "error", err)
	}
	w.svc.logger.InfoContext(ctx, "migration "+string(status), "migrationId", r.ID, "reason", reason)
	w.svc.publishOutcome(cleanup, r, status, reason)
}

// outcome is the data of the migration events.
type outcome struct {
	MigrationID    string           `json:"migrationId"`
	Status         Status           `json:"status"`
	OrganizationID string           `json:"organizationId"`
	DocumentID     string           `json:"documentId"`
	NewDocumentID  string           `json:"newDocumentId"`
	Error          string           `json:"error,omitempty"`
	Moved          map[string]int64 `json:"moved,omitempty"`
}

func (s *Service) publishOutcome(ctx context.Context, r record, status Status, reason string) {
	if s.pub == nil {
		return
	}
	typ := EventCompleted
	if status == Failed {
		typ = EventFailed
	}
	// Done is the state the worker read at its claim; re-read it so the
	// event carries every step's count.
	if fresh, err := s.store.get(ctx, r.ID); err == nil {
		r = fresh
	}
	e, err := events.New(typ, eventSource, r.WorkspaceID, r.OrganizationID, r.DocumentID, outcome{
		MigrationID: r.ID, Status: status, OrganizationID: r.OrganizationID,
		DocumentID: r.DocumentID, NewDocumentID: r.NewDocumentID, Error: reason, Moved: maps.Clone(r.Done),
	})
	if err == nil {
		err = s.pub.Publish(ctx, e)
	}
	if err != nil {
		s.logger.WarnContext(ctx, "migration: publishing the outcome failed", "migrationId", r.ID, "error", err)
	}
}
