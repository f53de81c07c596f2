package svcmemory_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/pkg/service/servicetest"
	"github.com/opencollab/backend/pkg/testenv"
	svcmemory "github.com/opencollab/backend/svc-memory"
)

type queryResult struct {
	Results       []record `json:"results"`
	Total         int      `json:"total"`
	NextPageToken *string  `json:"nextPageToken"`
}

// query runs judgments/query.
func (e *env) query(principal string, q map[string]any) queryResult {
	e.T.Helper()
	var out queryResult
	e.ok(principal, "/v2/memory/judgments/query", q, &out)
	return out
}

func (e *env) byID(principal, org, id string) (record, bool) {
	e.T.Helper()
	for _, r := range e.query(principal, map[string]any{"organizationId": org, "limit": 100}).Results {
		if r.RecordID == id {
			return r, true
		}
	}
	return record{}, false
}

func TestConsumerDerivesJudgments(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	at := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	resolved := review("a5", "comment_annotation.status_change", "o1", "d1", "ann2", "u3", "Fixed in the latest draft", at).
		with("changes", map[string]any{"status": map[string]any{"from": map[string]any{"id": "OPEN"}, "to": map[string]any{"id": "RESOLVED", "type": "terminal"}}})
	agent := review("a6", "comment_annotation.reject", "o1", "d1", "ann3", "bot", "", at).
		with("entityData", map[string]any{"commentText": "Contains a phone number", "contentType": "blog",
			"agent": map[string]any{"agentId": "pii-detection", "reason": map[string]any{"title": "PII", "description": "phone", "confidence": 90}}})
	e.ingest("ws1", 5,
		review("a1", "comment_annotation.approve", "o1", "d1", "ann1", "u1", "Looks good to me", at),
		review("a2", "comment_annotation.reject", "o1", "d1", "ann1", "u2", "The citation is missing", at.Add(time.Minute)),
		review("a3", "comment.add", "o1", "d2", "ann1", "u1", "Can you add a source?", at.Add(2*time.Minute)),
		review("a4", "crdt.update_data", "o1", "d1", "", "u1", "", at),
		resolved, agent,
	)
	a1, _ := e.byID(ws1, "o1", "a1")
	user := map[string]any{"userId": "u1", "name": "User u1", "email": "u1@example.com"}
	if a1.Decision != "approved" || a1.Reasoning != "Looks good to me" || a1.Confidence != 1 || a1.JudgeType != "human" ||
		a1.ContentType != "comment" || a1.CreatedAt != at.UnixMilli() || a1.OrganizationID != "o1" || a1.DocumentID != "d1" ||
		a1.AnnotationID != "ann1" || string(a1.Agent) != "null" || !equalJSON(a1.ActionUser, user) {
		t.Fatalf("a1 = %+v", a1)
	}
	if r, _ := e.byID(ws1, "o1", "a5"); r.Decision != "resolve" || r.Confidence != 0.8 {
		t.Fatalf("a5 = %+v", r)
	}
	a6, _ := e.byID(ws1, "o1", "a6")
	var agentBlock struct {
		AgentID string `json:"agentId"`
	}
	_ = json.Unmarshal(a6.Agent, &agentBlock)
	if a6.JudgeType != "agent" || agentBlock.AgentID != "pii-detection" || a6.Confidence != 0.9 || a6.ContentType != "blog" {
		t.Fatalf("a6 = %+v agent %s", a6, a6.Agent)
	}
	if _, found := e.byID(ws1, "o1", "a4"); found {
		t.Fatal("a crdt activity became a judgment")
	}
}

func TestConsumerIsIdempotentAndFollowsChanges(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	at := time.Now().Add(-time.Hour)
	a1 := review("a1", "comment_annotation.approve", "o1", "d1", "ann1", "u1", "First reasoning", at)
	a2 := review("a2", "comment_annotation.reject", "o1", "d1", "ann1", "u2", "Second reasoning", at)
	added := e.publish("ws1", "activity.add", a1, a2)
	e.waitIndexed("ws1", 2)

	// Redelivery of the same events, then a sentinel: the stream is read in
	// order, so once the sentinel is in, the redelivered ones were handled.
	e.publishEvents(added...)
	e.ingest("ws1", 3, review("s1", "comment.add", "o1", "d1", "ann9", "u1", "sentinel", at))
	if r, _ := e.byID(ws1, "o1", "a1"); r.Reasoning != "First reasoning" {
		t.Fatalf("a1 after redelivery = %+v", r)
	}

	// An update re-derives the judgment.
	updated := e.publish("ws1", "activity.update", a1.with("entityData", map[string]any{"commentText": "Updated reasoning"}))
	e.waitFor("a1 re-derived", func() bool { r, _ := e.byID(ws1, "o1", "a1"); return r.Reasoning == "Updated reasoning" })

	// An older event arriving late changes nothing.
	stale, _ := events.New("activity.add", "activity", "ws1", "o1", "d1", a1.with("entityData", map[string]any{"commentText": "Stale"}))
	stale.OccurredAt = updated[0].OccurredAt - 1000
	e.publishEvents(stale)
	// The activity is overwritten by one that is no decision: the judgment goes.
	e.publish("ws1", "activity.add", a2.with("actionType", "comment.update"))
	e.waitIndexed("ws1", 2)
	if r, _ := e.byID(ws1, "o1", "a1"); r.Reasoning != "Updated reasoning" {
		t.Fatalf("a stale event overwrote a1: %+v", r)
	}
	// Deleting the activity deletes the judgment, and search no longer finds it.
	e.publish("ws1", "activity.delete", a1)
	e.waitIndexed("ws1", 1)
	res := e.search(ws1, map[string]any{"query": "updated reasoning", "limit": 50})
	if len(res.Results) != 1 || res.Results[0].RecordID != "s1" {
		t.Fatalf("search after delete: %s", ids(res.Results))
	}
}

func TestBackfillReadsEventsPublishedBeforeStart(t *testing.T) {
	t.Parallel()
	e := &env{Env: servicetest.NewEnv(t)}
	e.pub = events.NewPublisher(e.Redis, nil, "activity", nil)
	at := time.Now()
	e.publish("ws1", "activity.add",
		review("old1", "comment_annotation.approve", "o1", "d1", "ann1", "u1", "Approved before memory existed", at),
		review("old2", "comment_annotation.reject", "o1", "d1", "ann1", "u2", "Rejected before memory existed", at))
	e.start(svcmemory.Config{})
	e.waitIndexed("ws1", 2)
}

func TestIndexIsRebuiltFromStore(t *testing.T) {
	t.Parallel()
	for _, snapshots := range []bool{false, true} {
		t.Run(map[bool]string{false: "no snapshot", true: "snapshot"}[snapshots], func(t *testing.T) {
			t.Parallel()
			cfg := svcmemory.Config{}
			if snapshots {
				cfg.IndexSnapshotDir = t.TempDir()
			}
			e := newEnv(t, cfg)
			at := time.Now()
			e.ingest("ws1", 3,
				review("r1", "comment_annotation.reject", "o1", "d1", "ann1", "u1", "The citation is missing", at),
				review("r2", "comment_annotation.reject", "o1", "d1", "ann2", "u2", "Missing citation for the claim", at),
				review("r3", "comment_annotation.approve", "o1", "d1", "ann3", "u3", "Lovely summary", at))
			e.svc.Close()
			if snapshots {
				for _, name := range []string{"review.builtin-hash-v2-256.snapshot", "content.builtin-hash-v2-256.snapshot"} {
					if _, err := os.Stat(filepath.Join(cfg.IndexSnapshotDir, name)); err != nil {
						t.Fatalf("no snapshot written: %v", err)
					}
				}
				// Written after the snapshot: must be caught up on start.
				_, err := e.DB.Collection("judgments").UpdateOne(t.Context(), bson.M{"recordId": "r3"},
					bson.M{"$set": bson.M{"reasoning": "Citation missing again", "updatedAt": time.Now().Add(time.Hour).UnixMilli()}})
				if err != nil {
					t.Fatal(err)
				}
			}
			// A fresh Redis: no event to replay, only the store to rebuild from.
			e.Redis = testenv.Redis(t)
			e.start(cfg)
			want := 2
			if snapshots {
				want = 3
			}
			e.waitFor("rebuilt index", func() bool {
				_, r := e.call(ws1, "/v2/memory/search", map[string]any{"query": "citation missing"})
				var res searchResult
				b, _ := json.Marshal(r.Result)
				_ = json.Unmarshal(b, &res)
				return len(res.Results) == 3 && countAbove(res.Results, 0.2) == want
			})
		})
	}
}

func countAbove(rs []record, sim float64) int {
	n := 0
	for _, r := range rs {
		if r.Similarity >= sim {
			n++
		}
	}
	return n
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
