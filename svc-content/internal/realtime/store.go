package realtime

import (
	"context"
	"sync"
	"time"

	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// Store is where documents live: svc-content's CRDT store, shared with the
// REST operations (one document, many doors). Compaction is the store's
// business; the realtime side only loads and appends.
type Store interface {
	// Load returns the document's stored state as one Yjs update (v1),
	// nil when the editor has no data yet, and the Mark of what it read.
	Load(ctx context.Context, key DocKey) ([]byte, Mark, error)
	// CatchUp returns what the store holds of the document beyond since
	// that this replica did not store itself, as one update (nil:
	// nothing new), and the room's Mark once it applied it. The room
	// holds everything it stored, so it is not read back.
	CatchUp(ctx context.Context, key DocKey, since Mark) ([]byte, Mark, error)
	// AppendBatch stores every update of batch durably before it
	// returns, in one store round-trip where the store can; the editor's
	// data is created when it has none (its type is what the update
	// reveals). Keys in a batch are distinct. The result holds one error
	// per item (nil: stored); a shorter result means the rest succeeded.
	// Every update was applied to its room's document (or merged from
	// updates that were), so it decodes: the store need not decode it.
	AppendBatch(ctx context.Context, batch []Append) []error
}

// Mark is how far a room has read its document from the store (state
// version, log sequence, when), as the store reports it; the zero Mark
// has read nothing.
type Mark struct {
	Version, LogSeq int64
	At              time.Time
}

// Append is one document's update in a batch.
type Append struct {
	Key    DocKey
	Update []byte
	By     Author
}

// Author is who made an edit: the token's user and the editing session.
type Author struct {
	UserID    string
	SessionID string
}

// MemoryStore is a Store in process memory, for tests and single-process
// experiments; nothing survives the process.
type MemoryStore struct {
	mu   sync.Mutex
	docs map[string][]byte
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore { return &MemoryStore{docs: map[string][]byte{}} }

// Load implements Store.
func (s *MemoryStore) Load(_ context.Context, key DocKey) ([]byte, Mark, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.docs[key.id()], Mark{}, nil
}

// CatchUp implements Store: the whole document (marks nothing).
func (s *MemoryStore) CatchUp(ctx context.Context, key DocKey, _ Mark) ([]byte, Mark, error) {
	return s.Load(ctx, key)
}

// AppendBatch implements Store.
func (s *MemoryStore) AppendBatch(ctx context.Context, batch []Append) []error {
	errs := make([]error, len(batch))
	for i, a := range batch {
		errs[i] = s.Append(ctx, a.Key, a.Update)
	}
	return errs
}

// Append makes the stored state the merge of the old state and update.
func (s *MemoryStore) Append(_ context.Context, key DocKey, update []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	old, ok := s.docs[key.id()]
	if !ok {
		s.docs[key.id()] = append([]byte(nil), update...)
		return nil
	}
	merged, err := yjs.MergeUpdates(old, update)
	if err != nil {
		return err
	}
	s.docs[key.id()] = merged
	return nil
}
