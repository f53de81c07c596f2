package migration

import (
	"context"
	"crypto/rand"
	"time"
)

// WorkerOptions tune a Worker; zero fields take the defaults.
type WorkerOptions struct {
	// Lease is how long a claim holds a migration without renewal; a
	// crashed worker's migration is resumed by another after it. Default 30s.
	Lease time.Duration
	// PollInterval is how often the worker looks for work. Default 1s.
	PollInterval time.Duration
	// StepTries is how often one attempt calls a step that fails
	// transiently before giving the attempt up. Default 3.
	StepTries int
	// RetryBackoff is the first pause between two tries of a step; it
	// doubles. Default 500ms.
	RetryBackoff time.Duration
	// MaxAttempts is how many attempts end in a transient failure before
	// the migration fails. Default 5.
	MaxAttempts int
	// AttemptBackoff is the first pause before a released migration is
	// claimed again; it doubles up to MaxAttemptBackoff. Default 2s.
	AttemptBackoff time.Duration
	// MaxAttemptBackoff caps AttemptBackoff. Default 5m.
	MaxAttemptBackoff time.Duration
}

func (o WorkerOptions) withDefaults() WorkerOptions {
	if o.Lease <= 0 {
		o.Lease = 30 * time.Second
	}
	if o.PollInterval <= 0 {
		o.PollInterval = time.Second
	}
	if o.StepTries <= 0 {
		o.StepTries = 3
	}
	if o.RetryBackoff <= 0 {
		o.RetryBackoff = 500 * time.Millisecond
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 5
	}
	if o.AttemptBackoff <= 0 {
		o.AttemptBackoff = 2 * time.Second
	}
	if o.MaxAttemptBackoff <= 0 {
		o.MaxAttemptBackoff = 5 * time.Minute
	}
	return o
}

// claimBatch is how many candidates one poll reads.
const claimBatch = 10

// Worker runs migrations: it claims one whose lease ran out, moves its
// remaining steps and ends it. Run one per process; replicas coordinate
// through the claims.
type Worker struct {
	svc  *Service
	opts WorkerOptions
	id   string // unique per worker: the owner of its claims
}

// NewWorker returns a worker of s with a fresh owner id.
func (s *Service) NewWorker(o WorkerOptions) *Worker {
	return &Worker{svc: s, opts: o.withDefaults(), id: "worker_" + rand.Text()}
}

// Run works until ctx is done. It polls every PollInterval and at once
// when this process started a migration.
func (w *Worker) Run(ctx context.Context) {
	ticker := time.NewTicker(w.opts.PollInterval)
	defer ticker.Stop()
	for {
		w.pass(ctx)
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		case <-w.svc.wake:
		}
	}
}

// pass runs every migration it can claim, one after the other.
func (w *Worker) pass(ctx context.Context) {
	candidates, err := w.svc.store.claimable(ctx, w.svc.now(), claimBatch)
	if err != nil {
		if ctx.Err() == nil {
			w.svc.logger.WarnContext(ctx, "migration: looking for work failed", "error", err)
		}
		return
	}
	for _, c := range candidates {
		if ctx.Err() != nil {
			return
		}
		l, ok := w.claim(ctx, c.ID)
		if !ok {
			continue
		}
		r, err := w.svc.store.get(ctx, c.ID) // fresh progress, after the claim
		if err != nil {
			w.svc.logger.WarnContext(ctx, "migration: reading claimed migration failed", "migrationId", c.ID, "error", err)
			continue // the claim expires and the migration is retried
		}
		w.run(ctx, l, r)
	}
}

// claim takes migration id when its latest claim has expired (or it has
// none) by inserting the next generation, then marks the record.
func (w *Worker) claim(ctx context.Context, id string) (*lease, bool) {
	now := w.svc.now()
	latest, found, err := w.svc.store.latestClaim(ctx, id)
	if err != nil || (found && latest.Until.After(now)) {
		return nil, false
	}
	next := newClaim(id, latest.Gen+1, w.id, now.Add(w.opts.Lease), now)
	won, err := w.svc.store.insertClaim(ctx, next)
	if err != nil || !won {
		return nil, false
	}
	marked, err := w.svc.store.markClaimed(ctx, id, w.id, next.Until, now)
	if err != nil || !marked {
		return nil, false // ended meanwhile, or retried once the claim expires
	}
	w.svc.logger.InfoContext(ctx, "migration claimed", "migrationId", id, "gen", next.Gen, "worker", w.id)
	return &lease{id: id, gen: next.Gen, until: next.Until}, true
}
