// Package crdt keeps the collaborative-editor (CRDT) data of documents:
// per editor id one Yjs document holding one shared type at contentKey
// (DESIGN.md, CRDT). add creates it, update merges a client's Yjs update
// or writes new content as the diff from the stored state, get reads the
// current content (and the Yjs state on request), and the realtime door
// appends the updates of connected editors.
//
// Storage (store.go, updatelog.go): per editor the merged state (a Yjs v1
// update with the content it reads as) plus a log of the updates appended
// since. Appends only insert into the log, so they cost the update's size;
// compaction (compact.go) merges the log into a new state and then drops
// the merged entries, so the log stays short.
package crdt

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// Types are the allowed values of type.
var Types = []string{"text", "map", "array", "xml"}

// DefaultContentKey is the content key when the request names none.
const DefaultContentKey = "content"

// TipTapContentKey is the content key of TipTap editors (Collaboration's
// default field): its XML follows the ProseMirror mapping.
const TipTapContentKey = "default"

// EventSource is the publishing service of the CRDT events.
const EventSource = "content"

// Event types published by add and update.
const (
	EventAdd    = "crdt.add_data"
	EventUpdate = "crdt.update_data"
)

// Editor names the editor data of one editor instance.
type Editor struct {
	OrganizationID string
	DocumentID     string
	EditorID       string
}

// State is a stored, merged state of one editor.
type State struct {
	Editor
	Type       string
	ContentKey string
	// ProseMirror marks an xml editor written with the TipTap mapping
	// (always true for contentKey default).
	ProseMirror   bool
	Update        []byte          // the merged state (Yjs update v1)
	Data          json.RawMessage // Update's content as get returns it; nil: not kept
	Version       int64           // 1 when created, +1 per compaction
	LastUpdate    time.Time
	LastUpdatedBy string // empty: unknown
	// LogSeq is the highest log sequence merged into the state; keyedLog
	// is false for states that may have log entries of the previous
	// writer (read by query).
	LogSeq   int64
	keyedLog bool
	logFrom  int64 // the lowest log sequence that may still be stored
}

// tipTap reports whether the editor's XML follows the ProseMirror mapping.
func (s State) tipTap() bool {
	return s.Type == "xml" && (s.ProseMirror || s.ContentKey == TipTapContentKey)
}

// LogEntry is one update appended to an editor's log.
type LogEntry struct {
	Editor
	ID     string // the store's id, set by the store
	Seq    int64  // the entry's place in the log (0: the previous writer's)
	Update []byte
	At     time.Time
	UserID string
}

// Store is the persistence the operations need; every method is scoped
// to one workspace unless it takes workspaces per item.
type Store interface {
	// InsertState writes s as version s.Version of its editor: ErrExists
	// when that version exists (version 1: the editor has data; later
	// ones: another compaction came first).
	InsertState(ctx context.Context, ws string, s State) error
	// FindState returns the latest state of the editor; ErrNotFound.
	FindState(ctx context.Context, ws string, ed Editor) (State, error)
	// FindStateToCompact is FindState for a compaction: the version this
	// replica saw latest, without asking whether a newer one exists.
	FindStateToCompact(ctx context.Context, ws string, ed Editor) (State, error)
	// FindDocumentStates returns the latest state of every editor of the
	// document, ordered by editor id.
	FindDocumentStates(ctx context.Context, ws, org, doc string) ([]State, error)
	// PruneStates drops the content of the versions below s and, once
	// they are old enough, the versions themselves (best effort).
	PruneStates(ctx context.Context, ws string, s State)
	// StateSizes returns the state size of those editors that have data.
	StateSizes(ctx context.Context, eds []WorkspaceEditor) (map[WorkspaceEditor]int64, error)

	// AppendLog inserts the entries (of any editors) in one round trip
	// where the store can; errs[i] is entry i's error.
	AppendLog(ctx context.Context, entries []WorkspaceEntry) (errs []error)
	// FindCurrent returns the latest state of the editor and the entries
	// logged after it, oldest first, as one snapshot: every entry missing
	// from the log is in the state. ErrNotFound.
	FindCurrent(ctx context.Context, ws string, ed Editor) (State, []LogEntry, error)
	// FindDocumentLog returns the logged entries of every editor of the
	// document, oldest first.
	FindDocumentLog(ctx context.Context, ws, org, doc string) ([]LogEntry, error)
	// FindMissing returns what a reader at since lacks of the editor:
	// the log entries after since.LogSeq that held does not report, the
	// latest state when it merged entries the reader never saw, and the
	// reader's Mark once it has them.
	FindMissing(ctx context.Context, ws string, ed Editor, since Mark, held func(seq int64) bool) (Missing, error)
	// DeleteLog removes the editor's log sequences from up to through
	// (a stored state holds them) and the previous writer's entries of
	// legacy.
	DeleteLog(ctx context.Context, ws string, ed Editor, from, through int64, legacy []LogEntry) error
	// SetLogFrom records in the stored state st that the editor's log
	// holds no sequence below from.
	SetLogFrom(ctx context.Context, ws string, st State, from int64) error

	// MoveDocument re-keys every state and log entry of doc to newDoc.
	MoveDocument(ctx context.Context, ws, org, doc, newDoc string) (int64, error)
	// HasDocument reports whether any editor of doc has data.
	HasDocument(ctx context.Context, ws, org, doc string) (bool, error)
}

// WorkspaceEditor is an editor with its workspace.
type WorkspaceEditor struct {
	Workspace string
	Editor
}

// WorkspaceEntry is a log entry with its workspace.
type WorkspaceEntry struct {
	Workspace string
	LogEntry
}

// Store errors.
var (
	ErrExists   = errors.New("crdt: editor data exists")
	ErrNotFound = errors.New("crdt: no editor data")
)

// Publisher publishes events (pkg/events.Publisher).
type Publisher interface {
	Publish(ctx context.Context, events ...events.Event) error
}

// Settings are the limits of the CRDT data (Config: CRDT_*).
type Settings struct {
	// MaxDocumentBytes bounds an editor's stored state plus its log.
	MaxDocumentBytes int64
	// CompactEntries and CompactBytes: when a log this long is merged
	// into the state (see wantsCompaction).
	CompactEntries int
	CompactBytes   int64
}

// wantsCompaction reports whether a log of entries updates and logBytes
// bytes after a state of stateBytes is due to be merged into a new state:
// at CompactBytes, or at CompactEntries once the log holds at least
// 1/compactStateShare of the state's bytes, or at compactEntriesCap
// times CompactEntries whatever its size. A compaction rewrites the
// whole state, so one every CompactEntries updates cost a large document
// its size per few small edits (a 1 MiB document rewritten per 64
// keystrokes); waiting for the log to reach a share of the state bounds
// what is rewritten per byte appended (at most 1+compactStateShare),
// and the cap bounds the entries a read of the document probes.
func (s Settings) wantsCompaction(entries int, logBytes, stateBytes int64) bool {
	switch {
	case logBytes >= s.CompactBytes:
		return true
	case entries < s.CompactEntries:
		return false
	}
	return logBytes*compactStateShare >= stateBytes || entries >= compactEntriesCap*s.CompactEntries
}

// The share of a state that its log must reach before it is compacted,
// and the cap on its entries in multiples of CompactEntries
// (wantsCompaction).
const (
	compactStateShare = 1
	compactEntriesCap = 4
)

// Defaults of Settings.
const (
	DefaultMaxDocumentBytes = 10 << 20
	DefaultCompactEntries   = 64
	DefaultCompactBytes     = 1 << 20
)

// WithDefaults fills zero fields.
func (s Settings) WithDefaults() Settings {
	if s.MaxDocumentBytes <= 0 {
		s.MaxDocumentBytes = DefaultMaxDocumentBytes
	}
	if s.CompactEntries <= 0 {
		s.CompactEntries = DefaultCompactEntries
	}
	if s.CompactBytes <= 0 {
		s.CompactBytes = DefaultCompactBytes
	}
	return s
}

// Service runs the CRDT operations.
type Service struct {
	store    Store
	events   Publisher
	now      func() time.Time
	onWrite  WriteHook
	settings Settings
	// editors are what this replica remembers per editor (editors.go).
	editors *editorCache
	// compactions are the background compactions in flight; compactSlots
	// bounds how many of them run at once.
	compactions  sync.WaitGroup
	compactSlots chan struct{}
	// validateUpdate decodes an update given to AppendUpdates
	// (yjs.ValidateUpdate; a test counts its calls).
	validateUpdate func([]byte) error
}

// WriteHook hears of every REST write (add, update) with the update it
// made, so realtime clients receive it live.
type WriteHook func(ctx context.Context, ws string, ed Editor, update []byte)

// OnWrite sets the hook of REST writes.
func (s *Service) OnWrite(h WriteHook) { s.onWrite = h }

// NewService returns a Service storing in db (collections crdt_editors
// and crdt_updates). A nil pub publishes nothing; zero settings take the
// defaults.
func NewService(db *mongo.Database, pub Publisher, settings Settings) *Service {
	return newService(newMongoStore(db), pub, time.Now, settings)
}

func newService(store Store, pub Publisher, now func() time.Time, settings Settings) *Service {
	return &Service{store: store, events: pub, now: now, settings: settings.WithDefaults(), editors: newEditorCache(),
		compactSlots: make(chan struct{}, maxConcurrentCompactions), validateUpdate: yjs.ValidateUpdate}
}

// EnsureIndexes creates the indexes of the store (idempotent).
func (s *Service) EnsureIndexes(ctx context.Context) error {
	if ix, ok := s.store.(interface{ EnsureIndexes(context.Context) error }); ok {
		return ix.EnsureIndexes(ctx)
	}
	return nil
}

// Wait waits for the background compactions in flight.
func (s *Service) Wait() { s.compactions.Wait() }

// Settings returns the limits in force.
func (s *Service) Settings() Settings { return s.settings }
