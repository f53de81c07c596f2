package evalset

import (
	"context"
	"os"
	"testing"

	"github.com/opencollab/backend/svc-memory/internal/memory"
)

// Floors of the quality gate: what the hybrid mode measures (README,
// Memory: recall@5 0.929, MRR 0.986, suggest 0.921), minus a little. Both
// goals (GoalRecall5, GoalSuggest) are met on the whole set with the
// built-in embedder; the held-out test split alone reaches recall@5 0.885.
// The gate keeps the figures from sliding back and fails on any leak
// across organizations. EVAL_GOALS=1 asserts the goals themselves.
const (
	floorRecall5 = 0.92
	floorMRR     = 0.98
	floorSuggest = 0.90
)

func TestEvaluationSetQualityGate(t *testing.T) {
	t.Parallel()
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Cases) < 300 {
		t.Fatalf("%d cases, the set needs at least 300", len(set.Cases))
	}
	m, err := Run(context.Background(), set, memory.RetrievalHybrid)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("hybrid: recall@5 %.3f, MRR %.3f, suggest accuracy %.3f, cross-organization %d (%d search, %d suggest cases)",
		m.Recall5, m.MRR, m.SuggestAcc, m.CrossOrg, m.SearchCases, m.SuggestCases)
	recall, suggest := floorRecall5, floorSuggest
	if os.Getenv("EVAL_GOALS") != "" {
		recall, suggest = GoalRecall5, GoalSuggest
	}
	if m.CrossOrg != 0 {
		t.Errorf("%d results crossed organizations", m.CrossOrg)
	}
	if m.Recall5 < recall || m.MRR < floorMRR || m.SuggestAcc < suggest {
		t.Errorf("below the gate: recall@5 %.3f (min %.2f), MRR %.3f (min %.2f), suggest %.3f (min %.2f)",
			m.Recall5, recall, m.MRR, floorMRR, m.SuggestAcc, suggest)
	}
}

// Every mode runs and keeps organizations apart.
func TestEvaluationModesNeverLeak(t *testing.T) {
	t.Parallel()
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{memory.RetrievalVector, memory.RetrievalLexical} {
		m, err := Run(context.Background(), set, mode)
		if err != nil {
			t.Fatal(err)
		}
		if m.CrossOrg != 0 || m.SearchCases == 0 || m.SuggestCases == 0 {
			t.Errorf("%s: %d cross-organization results, %d search and %d suggest cases", mode, m.CrossOrg, m.SearchCases, m.SuggestCases)
		}
	}
	m, err := RunWith(context.Background(), set, memory.RetrievalHybrid, Options{Thesaurus: true})
	if err != nil {
		t.Fatal(err)
	}
	if m.CrossOrg != 0 {
		t.Errorf("hybrid with the thesaurus: %d cross-organization results", m.CrossOrg)
	}
}

func TestScoreSearch(t *testing.T) {
	t.Parallel()
	recall, rr := scoreSearch([]string{"x", "a", "y", "b", "z", "c"}, []string{"a", "b", "c"})
	if recall != 2.0/3 || rr != 0.5 {
		t.Errorf("recall %v rr %v, want 2/3 and 1/2", recall, rr)
	}
}
