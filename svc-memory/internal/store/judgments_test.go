package store_test

import (
	"context"
	"testing"

	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-memory/internal/judgment"
	"github.com/opencollab/backend/svc-memory/internal/memory"
	"github.com/opencollab/backend/svc-memory/internal/store"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func newJudgments(t *testing.T) *store.Judgments {
	t.Helper()
	s := store.NewJudgments(testenv.Mongo(t))
	if err := s.EnsureIndexes(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSaveIsGuardedBySourceTime(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newJudgments(t)
	j := judgment.Judgment{RecordID: "r1", OrganizationID: "o1", DocumentID: "d1", Decision: judgment.Approved, Reasoning: "v2",
		Agent: []byte(`{"agentId":"a"}`), Reviewer: judgment.User{UserID: "u1", Name: "Ann"}}
	if _, saved, err := s.SaveJudgment(ctx, "ws1", j, 200); err != nil || !saved {
		t.Fatalf("first save: %v %v", saved, err)
	}
	older := j
	older.Reasoning = "v1"
	if _, saved, err := s.SaveJudgment(ctx, "ws1", older, 100); err != nil || saved {
		t.Fatalf("an older event was saved: %v %v", saved, err)
	}
	if _, saved, _ := s.SaveJudgment(ctx, "ws2", older, 100); !saved {
		t.Fatal("another workspace's record is independent")
	}
	got, err := s.FindByIDs(ctx, "ws1", []string{"r1"})
	if err != nil || len(got) != 1 || got[0].Reasoning != "v2" || string(got[0].Agent) != `{"agentId":"a"}` || got[0].Reviewer.Name != "Ann" {
		t.Fatalf("stored %+v %v", got, err)
	}
	if deleted, _ := s.DeleteJudgment(ctx, "ws1", "r1", 150); deleted {
		t.Fatal("an older delete removed a newer judgment")
	}
	if deleted, _ := s.DeleteJudgment(ctx, "ws1", "r1", 300); !deleted {
		t.Fatal("a newer delete did not remove the judgment")
	}
}

// bothPaths runs fn with the point reads and writes FerretDB gets and
// with the wider queries MongoDB gets.
func bothPaths(t *testing.T, fn func(t *testing.T, s *store.Judgments)) {
	for _, point := range []bool{true, false} {
		t.Run(map[bool]string{true: "point", false: "query"}[point], func(t *testing.T) {
			s := newJudgments(t)
			s.SetPointWrites(point)
			fn(t, s)
		})
	}
}

func TestFindByIDs(t *testing.T) {
	t.Parallel()
	bothPaths(t, func(t *testing.T, s *store.Judgments) {
		ctx := context.Background()
		for _, id := range []string{"r1", "r2", "r3"} {
			j := judgment.Judgment{RecordID: id, OrganizationID: "o1", DocumentID: "d1", Decision: judgment.Comment}
			if _, _, err := s.SaveJudgment(ctx, "ws1", j, 1); err != nil {
				t.Fatal(err)
			}
		}
		other := judgment.Judgment{RecordID: "r2", OrganizationID: "o9", DocumentID: "d9", Decision: judgment.Comment}
		if _, _, err := s.SaveJudgment(ctx, "ws2", other, 1); err != nil {
			t.Fatal(err)
		}
		got, err := s.FindByIDs(ctx, "ws1", []string{"r3", "missing", "r2"})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]string{}
		for _, j := range got {
			seen[j.RecordID] = j.WorkspaceID + "/" + j.OrganizationID
		}
		if len(got) != 2 || seen["r3"] != "ws1/o1" || seen["r2"] != "ws1/o1" {
			t.Fatalf("FindByIDs = %+v, want r2 and r3 of ws1 only", got)
		}
	})
}

func TestIndexingMarksFollowRevisions(t *testing.T) { bothPaths(t, testIndexingMarks) }

func testIndexingMarks(t *testing.T, s *store.Judgments) {
	ctx := context.Background()
	j := judgment.Judgment{RecordID: "r1", OrganizationID: "o1", DocumentID: "d1", Decision: judgment.Comment}
	rev1, _, _ := s.SaveJudgment(ctx, "ws1", j, 1)
	rev2, _, _ := s.SaveJudgment(ctx, "ws1", j, 2) // written while rev1 was being indexed
	stale := memory.Stored{Judgment: j, WorkspaceID: "ws1", Rev: rev1}
	if err := s.MarkIndexed(ctx, []memory.Stored{stale}); err != nil {
		t.Fatal(err)
	}
	if pending, _ := s.Unindexed(ctx, 10); len(pending) != 1 || pending[0].Rev != rev2 {
		t.Fatalf("pending after a stale mark: %+v", pending)
	}
	if err := s.MarkIndexed(ctx, []memory.Stored{{Judgment: j, WorkspaceID: "ws1", Rev: rev2}}); err != nil {
		t.Fatal(err)
	}
	if pending, _ := s.Unindexed(ctx, 10); len(pending) != 0 {
		t.Fatalf("pending after marking: %+v", pending)
	}
	if err := s.MarkUnindexed(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if pending, _ := s.Unindexed(ctx, 10); len(pending) != 1 {
		t.Fatalf("pending after MarkUnindexed: %+v", pending)
	}
	// A move re-keys and asks for re-indexing.
	_ = s.MarkIndexed(ctx, []memory.Stored{{Judgment: j, WorkspaceID: "ws1", Rev: rev2}})
	if n, err := s.MoveDocument(ctx, "ws1", "o1", "d1", "d2"); err != nil || n != 1 {
		t.Fatalf("moved %d, %v", n, err)
	}
	if pending, _ := s.Unindexed(ctx, 10); len(pending) != 1 || pending[0].DocumentID != "d2" {
		t.Fatalf("pending after move: %+v", pending)
	}
}

func TestListFilters(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newJudgments(t)
	for i, doc := range []string{"d1", "d2", "d3"} {
		j := judgment.Judgment{RecordID: "r" + doc, OrganizationID: "o1", DocumentID: doc, Decision: judgment.Rejected, CreatedAt: int64(100 * (i + 1))}
		if _, _, err := s.SaveJudgment(ctx, "ws1", j, 1); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		f    memory.Filter
		want int64
	}{
		{"all", memory.Filter{}, 3},
		{"document and exclusion together", memory.Filter{DocumentID: "d1", ExcludeDocumentIDs: []string{"d1"}}, 0},
		{"exclusion", memory.Filter{ExcludeDocumentIDs: []string{"d1", "d3"}}, 1},
		{"window", memory.Filter{CreatedFrom: 150, CreatedTo: 300}, 2},
		{"decisions", memory.Filter{Decisions: []string{judgment.Approved}}, 0},
	}
	for _, tt := range tests {
		if n, err := s.Count(ctx, "ws1", tt.f); err != nil || n != tt.want {
			t.Errorf("%s: count %d (%v), want %d", tt.name, n, err, tt.want)
		}
	}
	page, err := s.List(ctx, "ws1", memory.ListQuery{Desc: true, After: &memory.Cursor{CreatedAt: 300, RecordID: "rd3"}, Limit: 10})
	if err != nil || len(page) != 2 || page[0].RecordID != "rd2" {
		t.Fatalf("page after the cursor: %+v %v", page, err)
	}
}
