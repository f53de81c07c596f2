package memory

import (
	"context"
	"encoding/json"
	"math"
	"strings"

	"github.com/opencollab/backend/pkg/activityevent"
	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/svc-memory/internal/judgment"
)

// ActivitySource is the publisher whose events become judgments; its
// stream is events.Stream(ActivitySource).
const ActivitySource = activityevent.Source

// HandleEvent is the events.Handler of the activity stream. An activity
// that records a review decision becomes (or replaces) the judgment with
// its id; any other activity with that id removes it, as does deleting the
// activity. Idempotent: the judgment is keyed by (workspace, activity id)
// and an event older than what is stored changes nothing, so redelivery
// and reordering are harmless. Only a failing store returns an error (the
// event is then retried); an indexing failure is left to the sweep.
func (s *Service) HandleEvent(ctx context.Context, ev events.Event) error {
	if ev.Source != ActivitySource || !strings.HasPrefix(ev.Type, "activity.") || ev.WorkspaceID == "" {
		return nil
	}
	var a judgment.Activity
	if err := json.Unmarshal(ev.Data, &a); err != nil || a.ID == "" {
		s.Logger.WarnContext(ctx, "memory: skipping an activity event without a usable record",
			"eventId", ev.ID, "type", ev.Type, "error", err)
		return nil
	}
	ws := ev.WorkspaceID
	switch ev.Type {
	case activityevent.Add, activityevent.Update:
		j, ok := judgment.FromActivity(a, ev.OrganizationID, ev.DocumentID)
		if !ok {
			return s.forget(ctx, ws, a.ID, ev.OccurredAt)
		}
		if j.CreatedAt == 0 {
			j.CreatedAt = ev.OccurredAt
		}
		return s.ingest(ctx, ws, j, ev.OccurredAt)
	case activityevent.Delete:
		return s.forget(ctx, ws, a.ID, ev.OccurredAt)
	}
	return nil
}

// ingest saves j and indexes it.
// The reviewer's erasure is checked twice: before saving, so the judgment
// of a reviewer erased already is never stored (not even for the moment
// between a save and its deletion, which a read right after the erasure
// could see), and after saving, which catches an erasure that ran while it
// was being saved (the erasure records itself before listing judgments);
// a judgment of a reviewer erased by then is deleted before it is indexed.
func (s *Service) ingest(ctx context.Context, ws string, j judgment.Judgment, sourceAt int64) error {
	if erased, err := s.erasedReviewer(ctx, ws, j, sourceAt); err != nil || erased {
		return err
	}
	rev, saved, err := s.Store.SaveJudgment(ctx, ws, j, sourceAt)
	if err != nil || !saved {
		return err
	}
	if erased, err := s.erasedReviewer(ctx, ws, j, sourceAt); err != nil || erased {
		if err != nil {
			return err
		}
		return s.forget(ctx, ws, j.RecordID, math.MaxInt64)
	}
	stored := Stored{Judgment: j, WorkspaceID: ws, Rev: rev}
	if err := s.index(ctx, []Stored{stored}); err != nil {
		s.Logger.WarnContext(ctx, "memory: indexing a judgment failed; the sweep retries it",
			"workspaceId", ws, "recordId", j.RecordID, "error", err)
	}
	s.announce(ctx, ws, []string{j.RecordID})
	return nil
}

// forget deletes the judgment of an activity that no longer records a
// decision, and its vectors. A vector left behind by a failing index is
// harmless: reads join every hit with the store and drop the missing.
func (s *Service) forget(ctx context.Context, ws, recordID string, sourceAt int64) error {
	deleted, err := s.Store.DeleteJudgment(ctx, ws, recordID, sourceAt)
	if err != nil || !deleted {
		return err
	}
	if err := s.deleteEverywhere(ctx, ws, recordID); err != nil {
		s.Logger.WarnContext(ctx, "memory: deleting the vectors of a judgment failed",
			"workspaceId", ws, "recordId", recordID, "error", err)
	}
	return nil
}
