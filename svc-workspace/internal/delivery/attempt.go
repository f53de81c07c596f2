package delivery

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/opencollab/backend/svc-workspace/internal/webhook"
)

// How attempts are claimed, across workers and replicas.
//
// FerretDB v1 runs a filtered update as read-then-write, so "update where
// status = pending" is no claim: two workers can both match and both win.
// The one atomic primitive on both FerretDB and MongoDB is an insert
// against a unique _id, and the scheme rests on two of them:
//
//  1. Claim. Attempt n of message m is made only by the worker whose insert
//     of the attempt record "m:n" (startedAt, leaseUntil) succeeded. The
//     record is thus persisted before the request, and each attempt number
//     is sent at most once.
//  2. Outcome. How attempt n ended is decided by inserting "m:n" into the
//     outcomes: the owner inserts succeeded/failed after the reply; any
//     worker that finds the claim's lease expired with no outcome inserts
//     "interrupted" (the owner died, or stalled past the lease). The first
//     insert wins, and outcomes never change.
//
// The queue document (nextAttempt, nextAttemptAt) and the archived status
// are only a cache derived from those records, written by plain updates
// that may race or be lost. Attempt n+1 is claimed only by a worker that
// read nextAttempt=n+1, which is written only after reading a failed
// outcome of n; a stale cache can only point at an attempt already
// claimed, whose insert then fails and whose records repair the cache
// (settle). So nothing is sent after a 2xx was recorded: no attempt number
// past a succeeded one is ever claimed. A worker that finds a live claim
// moves the message's next look to the end of the lease, so replicas do not
// keep looking at each other's work.
//
// Duplicate windows (at-least-once): a worker that crashes after the
// receiver's 2xx but before inserting the outcome, or that stalls longer
// than the lease (Timeout + 45 s by default) between claim and outcome,
// leaves an attempt that is counted interrupted and retried at once. Leases
// are compared across replicas, so their clocks must agree to well within
// those 45 s. An interrupted attempt counts towards the attempt limit,
// which bounds a message that crashes its workers.

// attempt makes the next attempt of m, or finds out why it need not.
func (s *Service) attempt(ctx context.Context, m messageDoc) error {
	cfg, target, err := s.targets.DeliveryTarget(ctx, m.WorkspaceID, m.EndpointID)
	switch {
	case errors.Is(err, webhook.ErrNotFound):
		return s.cancel(ctx, m, "endpoint deleted")
	case err != nil:
		return fmt.Errorf("look up endpoint: %w", err)
	case !cfg.IsEnabled:
		return s.cancel(ctx, m, "advanced webhooks disabled")
	case target.Endpoint.Disabled:
		return s.cancel(ctx, m, "endpoint disabled")
	}
	if erased, err := s.namesErased(ctx, m); err != nil {
		return err
	} else if erased {
		return s.cancelErased(ctx, m)
	}
	if wait := s.limiter.take(m.EndpointID, target.Endpoint.RateLimit, time.Now()); wait > 0 {
		return nil // still due; the dispatcher skips the endpoint until its next token
	}
	a := s.claimFor(m)
	won, err := s.store.claimAttempt(ctx, a)
	if err != nil {
		return err
	}
	if !won {
		return s.settle(ctx, m)
	}
	return s.decide(ctx, m, s.send(ctx, cfg, target, m, a))
}

// claimFor is this worker's claim on the next attempt of m.
func (s *Service) claimFor(m messageDoc) attemptDoc {
	now := s.now()
	return attemptDoc{
		ID: attemptID(m.ID, m.NextAttempt), WorkspaceID: m.WorkspaceID, EndpointID: m.EndpointID,
		MessageID: m.ID, EventType: m.EventType, Attempt: m.NextAttempt,
		Owner: s.opts.ConsumerName, StartedAt: now, LeaseUntil: now.Add(s.opts.Lease),
	}
}

// settle handles a message whose next attempt is claimed already: it
// brings the cache up to date from the outcome, waits for a live claim, or
// declares an expired one interrupted.
func (s *Service) settle(ctx context.Context, m messageDoc) error {
	id := attemptID(m.ID, m.NextAttempt)
	out, found, err := s.store.outcome(ctx, m.WorkspaceID, id)
	if err != nil {
		return err
	}
	if found {
		return s.apply(ctx, m, out)
	}
	a, err := s.store.attempt(ctx, m.WorkspaceID, id)
	if err != nil {
		return err
	}
	if now := s.now(); now.Before(a.LeaseUntil) {
		// Someone is on it: look again when the lease ends.
		return s.store.postpone(ctx, m, a.LeaseUntil)
	}
	lost := newOutcome(a, s.opts.ConsumerName)
	lost.Interrupted, lost.Error, lost.FinishedAt = true, "interrupted: the worker stopped before recording a result", s.now()
	return s.decide(ctx, m, lost)
}

// decide records out as the outcome of its attempt unless one was recorded
// first, and applies whichever stands.
func (s *Service) decide(ctx context.Context, m messageDoc, out outcomeDoc) error {
	won, err := s.store.recordOutcome(ctx, out)
	if err != nil {
		return err
	}
	if !won {
		first, found, err := s.store.outcome(ctx, m.WorkspaceID, out.ID)
		if err != nil {
			return err
		}
		if !found {
			return fmt.Errorf("outcome of %s vanished", out.ID)
		}
		if out.Succeeded && !first.Succeeded {
			s.logger.WarnContext(ctx, "a 2xx came after the attempt was counted interrupted; the retry may duplicate it",
				"messageId", m.ID, "attempt", out.Attempt)
		}
		return s.apply(ctx, m, first)
	}
	if !out.Interrupted {
		s.health.observe(ctx, m, out)
	}
	return s.apply(ctx, m, out)
}

// apply brings the message in line with a recorded outcome. Every step is
// idempotent: repairs after a crash repeat it.
func (s *Service) apply(ctx context.Context, m messageDoc, out outcomeDoc) error {
	n := out.Attempt
	switch {
	case out.Succeeded:
		return s.finish(ctx, m, statusDelivered, "", n)
	case n >= s.maxAttempts():
		// The report first: once the message is archived, nothing
		// would retry a report that failed to queue.
		if err := s.emitExhausted(ctx, m, out); err != nil {
			return err
		}
		return s.finish(ctx, m, statusFailed, "", n)
	default:
		return s.store.scheduleRetry(ctx, m, n, s.retryAt(out), s.now())
	}
}

// retryAt is when the attempt after out is due: per the schedule after a
// failure, at once after an interruption (whose result is unknown, not a
// failure of the endpoint).
func (s *Service) retryAt(out outcomeDoc) time.Time {
	if out.Interrupted {
		return out.FinishedAt
	}
	return out.FinishedAt.Add(s.opts.Schedule[out.Attempt-1])
}

// cancel ends a message that has nowhere to go: no further attempts
// (§14: disabled or removed endpoints get none).
func (s *Service) cancel(ctx context.Context, m messageDoc, reason string) error {
	return s.finish(ctx, m, statusCancelled, reason, m.NextAttempt-1)
}

// finish archives m and hands it to the batched dequeue.
func (s *Service) finish(ctx context.Context, m messageDoc, status, reason string, attempts int) error {
	if err := s.store.archive(ctx, m, status, reason, attempts, s.now()); err != nil {
		return err
	}
	s.finished.add(m.ID)
	return nil
}
