package svcmemory_test

import (
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/erasure"
	"github.com/opencollab/backend/pkg/events"
	svcmemory "github.com/opencollab/backend/svc-memory"
)

// TestErasedReviewerIsNotMadeAgainByALateEvent: an activity event from
// before a reviewer's erasure that arrives after it (a relay backlog after
// a crash) makes no judgment; a review the same user id makes later does.
func TestErasedReviewerIsNotMadeAgainByALateEvent(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	at := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	e.ingest("ws1", 1, review("a1", "comment_annotation.approve", "o1", "d1", "ann1", "u1", "Looks good to me", at))
	late, err := events.New("activity.add", "activity", "ws1", "o1", "d1",
		review("a2", "comment_annotation.reject", "o1", "d1", "ann2", "u1", "The citation is missing", at))
	if err != nil {
		t.Fatal(err)
	}

	e.ok(content, erasure.Path, map[string]any{"workspaceId": "ws1", "userIds": []string{"u1"}}, nil)
	if n := e.judgments(bson.M{"workspaceId": "ws1"}); n != 0 {
		t.Fatalf("after the erasure %d judgments, want 0", n)
	}

	// The late event, then another reviewer's: the stream is read in
	// order, so once u2's judgment is in, u1's late one was handled.
	e.publishEvents(late)
	e.ingest("ws1", 1, review("a3", "comment_annotation.approve", "o1", "d1", "ann3", "u2", "Fine by me", at))
	if n := e.judgments(bson.M{"workspaceId": "ws1", "reviewerId": "u1"}); n != 0 {
		t.Fatalf("a late event of the erased reviewer made %d judgments, want 0", n)
	}

	time.Sleep(5 * time.Millisecond) // a later event time than the erasure's
	e.ingest("ws1", 2, review("a4", "comment_annotation.reject", "o1", "d1", "ann4", "u1", "Needs a source", at))
}
