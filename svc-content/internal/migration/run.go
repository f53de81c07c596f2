package migration

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/opencollab/backend/pkg/api"
)

// run moves the steps r has not finished, in order, then completes r. A
// permanent step error fails the migration; a transient one ends this
// attempt (the migration is retried later, and fails after MaxAttempts).
// A lost lease or a done ctx stops it without writing anything.
func (w *Worker) run(ctx context.Context, l *lease, r record) {
	for _, step := range r.Steps {
		if _, done := r.Done[step]; done {
			continue
		}
		moved, err := w.runStep(ctx, l, r, step)
		if err != nil {
			w.stepFailed(ctx, l, r, step, err)
			return
		}
		if err := w.renew(ctx, l); err != nil {
			w.stopped(ctx, l, err)
			return
		}
		if ok, err := w.svc.store.recordStep(ctx, l.id, w.id, step, moved, w.svc.now()); err != nil || !ok {
			w.stopped(ctx, l, errors.Join(errLeaseLost, err))
			return
		}
		w.svc.logger.InfoContext(ctx, "migration step done", "migrationId", r.ID, "step", step, "moved", moved)
	}
	w.finish(ctx, l, r, Completed, "")
}

// runStep calls the step's owner, retrying transient failures with a
// growing pause, under a heartbeat that keeps the lease.
func (w *Worker) runStep(ctx context.Context, l *lease, r record, step string) (int64, error) {
	owner := w.svc.owner(step)
	if owner == nil {
		return 0, api.Errorf(api.Unavailable, "%s is not configured in this replica", step)
	}
	req := StepRequest{
		WorkspaceID: r.WorkspaceID, OrganizationID: r.OrganizationID,
		DocumentID: r.DocumentID, NewDocumentID: r.NewDocumentID, MigrationID: r.ID,
	}
	pause := w.opts.RetryBackoff
	var err error
	for try := 1; ; try++ {
		var moved int64
		moved, err = w.withHeartbeat(ctx, l, func(ctx context.Context) (int64, error) { return owner.MigrateDocument(ctx, req) })
		if err == nil {
			return moved, nil
		}
		if try >= w.opts.StepTries || !transient(ctx, err) {
			return 0, err
		}
		w.svc.logger.WarnContext(ctx, "migration step failed, retrying", "migrationId", r.ID, "step", step, "try", try, "error", err)
		if !sleep(ctx, pause) {
			return 0, ctx.Err()
		}
		pause *= 2
	}
}

// transient reports whether a step error may go away by itself. Errors
// that say the request itself is wrong are permanent; a lost lease or a
// done ctx is neither (the caller stops).
func transient(ctx context.Context, err error) bool {
	if ctx.Err() != nil || errors.Is(err, errLeaseLost) {
		return false
	}
	for _, s := range []api.Status{api.InvalidArgument, api.NotFound, api.AlreadyExists, api.FailedPrecondition} {
		if api.IsStatus(err, s) {
			return false
		}
	}
	return true
}

// stepFailed ends the attempt after step returned err.
func (w *Worker) stepFailed(ctx context.Context, l *lease, r record, step string, err error) {
	if ctx.Err() != nil || errors.Is(err, errLeaseLost) {
		w.stopped(ctx, l, err)
		return
	}
	w.svc.logger.WarnContext(ctx, "migration step failed", "migrationId", r.ID, "step", step, "error", err)
	reason := fmt.Sprintf("step %s: %s", step, message(err))
	if !transient(ctx, err) {
		w.finish(ctx, l, r, Failed, reason)
		return
	}
	attempts := r.Attempts + 1
	if attempts >= w.opts.MaxAttempts {
		w.finish(ctx, l, r, Failed, fmt.Sprintf("%s (gave up after %d attempts)", reason, attempts))
		return
	}
	w.release(ctx, l, attempts, reason)
}

// release hands the migration back for a later attempt: the next claim
// generation, owned by this worker, expires at the retry time, so any
// worker may take it from then on.
func (w *Worker) release(ctx context.Context, l *lease, attempts int, reason string) {
	now := w.svc.now()
	retryAt := now.Add(w.attemptPause(attempts))
	if !now.Before(l.until) {
		w.stopped(ctx, l, errLeaseLost)
		return
	}
	won, err := w.svc.store.insertClaim(ctx, newClaim(l.id, l.gen+1, w.id, retryAt, now))
	if err != nil || !won {
		w.stopped(ctx, l, errors.Join(errLeaseLost, err))
		return
	}
	if _, err := w.svc.store.release(ctx, l.id, w.id, attempts, reason, retryAt, now); err != nil {
		w.svc.logger.WarnContext(ctx, "migration: recording the failed attempt failed", "migrationId", l.id, "error", err)
	}
	w.svc.logger.WarnContext(ctx, "migration attempt failed", "migrationId", l.id, "attempt", attempts, "retryAt", retryAt, "reason", reason)
}

func (w *Worker) attemptPause(attempts int) time.Duration {
	pause := w.opts.AttemptBackoff
	for i := 1; i < attempts && pause < w.opts.MaxAttemptBackoff; i++ {
		pause *= 2
	}
	return min(pause, w.opts.MaxAttemptBackoff)
}

// stopped logs why the worker let go of a migration without ending it.
func (w *Worker) stopped(ctx context.Context, l *lease, err error) {
	if ctx.Err() != nil {
		return // shutting down: the lease expires and another worker resumes
	}
	w.svc.logger.WarnContext(ctx, "migration: stopped working on it", "migrationId", l.id, "error", err)
}

// message is the text of err a client may see in the status: the status
// and message of an *api.Error, nothing of other (internal) errors.
func message(err error) string {
	var apiErr *api.Error
	if errors.As(err, &apiErr) {
		return string(apiErr.Status) + ": " + apiErr.Message
	}
	return string(api.Internal) + ": internal error"
}

// sleep waits d or until ctx is done; false when ctx is done.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
