package evalset

import (
	"context"
	"slices"
	"sync"

	"github.com/opencollab/backend/svc-memory/internal/judgment"
	"github.com/opencollab/backend/svc-memory/internal/memory"
)

// memStore is an in-memory memory.Store: the evaluation measures
// retrieval, not MongoDB, and must run in a unit test in seconds.
type memStore struct {
	mu   sync.Mutex
	rev  int64
	docs map[string]*memory.Stored // by workspace/recordId
}

func newMemStore() *memStore { return &memStore{docs: map[string]*memory.Stored{}} }

func key(ws, id string) string { return ws + "/" + id }

func (m *memStore) SaveJudgment(_ context.Context, ws string, j judgment.Judgment, _ int64) (int64, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.rev++
	m.docs[key(ws, j.RecordID)] = &memory.Stored{Judgment: j, WorkspaceID: ws, Rev: m.rev}
	return m.rev, true, nil
}

func (m *memStore) DeleteJudgment(_ context.Context, ws, id string, _ int64) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.docs[key(ws, id)]
	delete(m.docs, key(ws, id))
	return ok, nil
}

func (m *memStore) FindByIDs(_ context.Context, ws string, ids []string) ([]memory.Stored, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []memory.Stored
	for _, id := range ids {
		if d, ok := m.docs[key(ws, id)]; ok {
			out = append(out, *d)
		}
	}
	return out, nil
}

// List serves the recency and thread paths, which the evaluation does not
// use; it filters by organization and document only.
func (m *memStore) List(_ context.Context, ws string, q memory.ListQuery) ([]memory.Stored, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []memory.Stored
	for _, d := range m.docs {
		if d.WorkspaceID == ws && (q.OrganizationID == "" || d.OrganizationID == q.OrganizationID) &&
			(q.DocumentID == "" || d.DocumentID == q.DocumentID) {
			out = append(out, *d)
		}
	}
	slices.SortFunc(out, func(a, b memory.Stored) int { return int(b.CreatedAt - a.CreatedAt) })
	return out[:min(len(out), q.Limit)], nil
}

func (m *memStore) MoveDocument(context.Context, string, string, string, string) (int64, error) {
	return 0, nil
}

func (m *memStore) HasDocumentData(context.Context, string, string, string) (bool, error) {
	return false, nil
}

func (m *memStore) Unindexed(_ context.Context, limit int) ([]memory.Stored, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []memory.Stored
	for _, d := range m.docs {
		if !d.Indexed && len(out) < limit {
			out = append(out, *d)
		}
	}
	return out, nil
}

func (m *memStore) MarkIndexed(_ context.Context, done []memory.Stored) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, j := range done {
		if d, ok := m.docs[key(j.WorkspaceID, j.RecordID)]; ok && d.Rev == j.Rev {
			d.Indexed = true
		}
	}
	return nil
}

func (m *memStore) MarkUnindexed(context.Context, int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, d := range m.docs {
		d.Indexed = false
	}
	return nil
}

func (m *memStore) Each(ctx context.Context, batch int, fn func([]memory.Stored) error) error {
	m.mu.Lock()
	all := make([]memory.Stored, 0, len(m.docs))
	for _, d := range m.docs {
		all = append(all, *d)
	}
	m.mu.Unlock()
	for start := 0; start < len(all); start += batch {
		if err := fn(all[start:min(start+batch, len(all))]); err != nil {
			return err
		}
	}
	return ctx.Err()
}

func (m *memStore) CountAll(context.Context) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return int64(len(m.docs)), nil
}

func (m *memStore) ReviewedBy(_ context.Context, ws string, userIDs []string) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for _, d := range m.docs {
		if d.WorkspaceID == ws && slices.Contains(userIDs, d.Reviewer.UserID) {
			out = append(out, d.RecordID)
		}
	}
	return out, nil
}

func (m *memStore) MarkReviewersErased(context.Context, string, []string, int64) error { return nil }

func (m *memStore) ReviewerErasedAt(context.Context, string, string) (int64, error) { return 0, nil }
