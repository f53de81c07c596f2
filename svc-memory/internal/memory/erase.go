package memory

import (
	"context"
	"math"
)

// EraseReviewers deletes the judgments users made as reviewers, with their
// vectors in every space and their lexical entries (GDPR erasure through
// /internal/userdata/erase; svc-memory does it itself instead of waiting
// for the activity deletions to arrive as events). Vectors go first: when
// an index fails the judgment stays, so the erasure job's retry finds it
// again. Idempotent.
func (s *Service) EraseReviewers(ctx context.Context, ws string, userIDs []string) (int64, error) {
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
