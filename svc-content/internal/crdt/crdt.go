// Package crdt keeps the collaborative-editor (CRDT) data of documents:
// per editor id one Yjs document holding one shared type at contentKey
// (DESIGN.md, CRDT). add creates it, update replaces its content by Yjs
// operations on the existing state, get returns the content as posted and
// the full Yjs update.
//
// Storage: a record per (workspace, organization, document, editor,
// version) holding the data as posted (compact JSON), the full update
// served by get, and the encoder state (internal/yjs.Doc) needed to append
// the next version. Replaced versions live on inside the update only in the
// form Yjs's garbage collector leaves them, so it grows by a few bytes per
// version, not by the content. See store.go for how versions are written
// without lost updates.
package crdt

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/opencollab/backend/pkg/events"
	yjs "github.com/opencollab/backend/svc-content/internal/crdt/legacyyjs"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// Types are the allowed values of type.
var Types = []string{"text", "map", "array", "xml"}

// DefaultContentKey is the content key when the request names none.
const DefaultContentKey = "content"

// EventSource is the publishing service of the CRDT events.
const EventSource = "content"

// Event types published by add and update.
const (
	EventAdd    = "crdt.add_data"
	EventUpdate = "crdt.update_data"
)

// Record is the stored editor data of one editor id.
type Record struct {
	OrganizationID string
	DocumentID     string
	EditorID       string
	Type           string
	ContentKey     string
	Data           json.RawMessage // as posted, compacted
	Update         []byte          // full Yjs update (v1) of the current state
	Doc            yjs.Doc         // encoder state for the next version
	Version        int64           // 1 for add, +1 for every update
	LastUpdate     time.Time
	LastUpdatedBy  string // empty: unknown
}

// Store is the persistence the operations need; every method is scoped
// to one workspace.
type Store interface {
	// Insert writes a new record; ErrExists when the editor id has one.
	Insert(ctx context.Context, ws string, r Record) error
	// Find returns the latest record of the editor id; ErrNotFound when
	// none.
	Find(ctx context.Context, ws, org, doc, editor string) (Record, error)
	// FindDocument returns the latest record of every editor of the
	// document, ordered by editor id.
	FindDocument(ctx context.Context, ws, org, doc string) ([]Record, error)
	// AppendVersion stores r as version r.Version of its editor;
	// ErrConflict when that version exists (another update came first).
	AppendVersion(ctx context.Context, ws string, r Record) error
	// MoveDocument re-keys every record of doc to newDoc.
	MoveDocument(ctx context.Context, ws, org, doc, newDoc string) (int64, error)
	// HasDocument reports whether any record of doc exists.
	HasDocument(ctx context.Context, ws, org, doc string) (bool, error)
}

// Store errors.
var (
	ErrExists   = errors.New("crdt: editor data exists")
	ErrNotFound = errors.New("crdt: no editor data")
	ErrConflict = errors.New("crdt: concurrent write")
)

// Publisher publishes events (pkg/events.Publisher).
type Publisher interface {
	Publish(ctx context.Context, events ...events.Event) error
}

// Service runs the CRDT operations.
type Service struct {
	store   Store
	events  Publisher
	now     func() time.Time
	onWrite WriteHook
}

// WriteHook hears of every REST write (add, update) with the editor's full
// state, so realtime clients receive it live.
type WriteHook func(ctx context.Context, ws string, ed Editor, update []byte)

// OnWrite sets the hook of REST writes.
func (s *Service) OnWrite(h WriteHook) { s.onWrite = h }

// NewService returns a Service storing in db (collection crdt_editors).
// A nil pub publishes nothing.
func NewService(db *mongo.Database, pub Publisher) *Service {
	return newService(newMongoStore(db), pub, time.Now)
}

func newService(store Store, pub Publisher, now func() time.Time) *Service {
	return &Service{store: store, events: pub, now: now}
}

// EnsureIndexes creates the indexes of the store (idempotent).
func (s *Service) EnsureIndexes(ctx context.Context) error {
	if ix, ok := s.store.(interface{ EnsureIndexes(context.Context) error }); ok {
		return ix.EnsureIndexes(ctx)
	}
	return nil
}
