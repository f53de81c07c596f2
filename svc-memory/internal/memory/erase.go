package memory

import (
	"context"
	"math"
	"time"

	"github.com/opencollab/backend/svc-memory/internal/judgment"
)

// EraseReviewers deletes the judgments users made as reviewers, with their
// vectors in every space and their lexical entries (GDPR erasure through
// /internal/userdata/erase; svc-memory does it itself instead of waiting
// for the activity deletions to arrive as events). Vectors go first: when
// an index fails the judgment stays, so the erasure job's retry finds it
// again. Idempotent.
//
// The erasure is recorded first: an activity event from before it that
// arrives later (a relay backlog, a redelivery) is then not made into a
// judgment again (ingest checks after saving).
func (s *Service) EraseReviewers(ctx context.Context, ws string, userIDs []string) (int64, error) {
	if err := s.Store.MarkReviewersErased(ctx, ws, userIDs, time.Now().UnixMilli()); err != nil {
		return 0, err
	}
	ids, err := s.Store.ReviewedBy(ctx, ws, userIDs)
	if err != nil {
		return 0, err
	}
	var n int64
	for _, id := range ids {
		if err := s.deleteEverywhere(ctx, ws, id); err != nil {
			return n, err
		}
		// Whatever event made it: the erasure wins over every source time.
		deleted, err := s.Store.DeleteJudgment(ctx, ws, id, math.MaxInt64)
		if err != nil {
			return n, err
		}
		if deleted {
			n++
		}
	}
	return n, nil
}

// erasedReviewer reports whether j's reviewer was erased from ws at or
// after sourceAt (the time of the event that made j): such a judgment
// must not be stored. A later review by the same user id is kept.
func (s *Service) erasedReviewer(ctx context.Context, ws string, j judgment.Judgment, sourceAt int64) (bool, error) {
	if j.Reviewer.UserID == "" {
		return false, nil
	}
	at, err := s.Store.ReviewerErasedAt(ctx, ws, j.Reviewer.UserID)
	return at != 0 && sourceAt <= at, err
}
