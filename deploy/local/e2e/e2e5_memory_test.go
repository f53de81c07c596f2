package e2e

import (
	"testing"
)

// TestMemoryThroughGateway runs svc-memory's operations end to end on one
// stack: 300 review activities go in through /v2/activities/add, become
// events, judgments and vectors, and come back through judgments/query,
// search, ask and suggest; agents and cross-workspace isolation run on the
// same stack. Subtests run in order; only the last one changes the seed's
// workspace (in an organization of its own).
func TestMemoryThroughGateway(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	seed := e5BuildSeed()
	e5Ingest(t, s, seed)
	e5CheckSeedTimes(t, seed)

	t.Run("judgments/query", func(t *testing.T) { e5TestQuery(t, s.e5For(t), seed) })
	t.Run("search validation", func(t *testing.T) { e5TestSearchValidation(t, s.e5For(t)) })
	t.Run("search", func(t *testing.T) { e5TestSearch(t, s.e5For(t), seed) })
	t.Run("search filters", func(t *testing.T) { e5TestSearchFilters(t, s.e5For(t), seed) })
	t.Run("search thread and recency", func(t *testing.T) { e5TestThreadAndRecency(t, s.e5For(t), seed) })
	t.Run("ask", func(t *testing.T) { e5TestAsk(t, s.e5For(t), seed) })
	t.Run("suggest", func(t *testing.T) { e5TestSuggest(t, s.e5For(t), seed) })
	t.Run("agents", func(t *testing.T) { e5TestAgents(t, s.e5For(t)) })
	t.Run("workspace isolation", func(t *testing.T) { e5TestIsolation(t, s.e5For(t), seed) })
	t.Run("activity update and delete reach memory", func(t *testing.T) { e5TestActivityChanges(t, s.e5For(t)) })
}
