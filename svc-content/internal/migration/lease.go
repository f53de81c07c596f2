package migration

import (
	"context"
	"errors"
	"sync"
	"time"
)

// errLeaseLost means another worker holds the migration now (or this one
// could not renew in time): stop working on it and write nothing.
var errLeaseLost = errors.New("migration lease lost")

// lease is a worker's hold on a migration: its latest claim generation and
// when that runs out.
type lease struct {
	id    string
	gen   int64
	until time.Time
}

// renew extends the lease by inserting the next claim generation. It fails
// with errLeaseLost once the lease has run out (a claimer may already have
// taken over) or when another worker won the generation.
func (w *Worker) renew(ctx context.Context, l *lease) error {
	now := w.svc.now()
	if !now.Before(l.until) {
		return errLeaseLost
	}
	next := newClaim(l.id, l.gen+1, w.id, now.Add(w.opts.Lease), now)
	won, err := w.svc.store.insertClaim(ctx, next)
	if err != nil {
		return err
	}
	if !won {
		// Our own earlier insert whose reply was lost (a cancelled
		// context) is still ours; anyone else's means we lost.
		got, found, err := w.svc.store.claimByID(ctx, l.id, next.Gen)
		if err != nil {
			return err
		}
		if !found || got.Owner != w.id {
			return errLeaseLost
		}
		next = got
	}
	l.gen, l.until = next.Gen, next.Until
	// The record's copy is only a hint for the candidates query.
	_, _ = w.svc.store.touch(ctx, l.id, w.id, next.Until, now)
	return nil
}

// withHeartbeat renews the lease, then runs fn while renewing it every
// third of the lease, so a step starts with a whole lease and may take
// longer than one. When the lease cannot be kept, fn's context is
// cancelled before the lease runs out and errLeaseLost is returned, so no
// other worker's run of the migration overlaps this one.
func (w *Worker) withHeartbeat(ctx context.Context, l *lease, fn func(context.Context) (int64, error)) (int64, error) {
	if err := w.renew(ctx, l); err != nil {
		return 0, err
	}
	stepCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	lost := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() { w.heartbeat(stepCtx, l, cancel, lost) })
	moved, err := fn(stepCtx)
	cancel()
	wg.Wait()
	select {
	case <-lost:
		return 0, errLeaseLost
	default:
		return moved, err
	}
}

func (w *Worker) heartbeat(ctx context.Context, l *lease, cancelStep context.CancelFunc, lost chan<- struct{}) {
	every := w.opts.Lease / 3
	ticker := time.NewTicker(every)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
		err := w.renew(ctx, l)
		if err == nil || ctx.Err() != nil {
			continue
		}
		// Give up while the lease still holds if the next beat could come
		// too late: the step must stop before anyone else may start it.
		if errors.Is(err, errLeaseLost) || !w.svc.now().Add(every).Before(l.until) {
			w.svc.logger.WarnContext(ctx, "migration: lease lost, stopping", "migrationId", l.id, "error", err)
			close(lost)
			cancelStep()
			return
		}
		w.svc.logger.WarnContext(ctx, "migration: lease renewal failed, retrying", "migrationId", l.id, "error", err)
	}
}
