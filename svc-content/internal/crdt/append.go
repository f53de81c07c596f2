package crdt

import (
	"context"
	"errors"
	"slices"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// The realtime door (internal/realtime) reads and writes the same editors
// as the REST operations: LoadUpdate gives a document as one Yjs update,
// AppendUpdates logs the updates clients sent.

// Append is one update for AppendUpdates.
type Append struct {
	Workspace string
	Editor    Editor
	Update    []byte
	UserID    string
}

// LoadUpdate returns the editor's document as one update (nil when it has
// no data): its state merged with its log.
func (s *Service) LoadUpdate(ctx context.Context, ws string, ed Editor) ([]byte, error) {
	update, _, err := s.LoadMarked(ctx, ws, ed)
	return update, err
}

// AppendUpdate is AppendUpdates of one update.
func (s *Service) AppendUpdate(ctx context.Context, ws string, ed Editor, update []byte, userID string) error {
	return s.AppendUpdates(ctx, []Append{{Workspace: ws, Editor: ed, Update: update, UserID: userID}})[0]
}

// AppendUpdates logs updates of any editors: errs[i] is batch[i]'s error.
// The updates of editors known to have data go to the log in one store
// round trip, each costing its own size (it is decoded, not merged: the
// content is read at get and at compaction). An editor without data is
// created by its first update that has content: the update's root (the
// first by name that holds content) becomes the contentKey and what it
// holds decides the type (child elements: xml; keyed entries: map;
// characters: text; other values: array). An update with no content yet
// is not stored (there is nothing to keep). A malformed update is
// INVALID_ARGUMENT; one that would take the document past
// MaxDocumentBytes is INVALID_ARGUMENT too. It is the realtime door's
// write: a catch-up (CatchUp) does not read its entries back, as the room
// that sent them holds them.
func (s *Service) AppendUpdates(ctx context.Context, batch []Append) []error {
	errs := make([]error, len(batch))
	for i, a := range batch {
		if err := checkEditor(a.Editor); err != nil {
			errs[i] = err
		} else if err := s.validateUpdate(a.Update); err != nil {
			errs[i] = api.Errorf(api.InvalidArgument, "malformed Yjs update: %v", err)
		}
	}
	return s.appendChecked(ctx, batch, errs, false)
}

// AppendAppliedUpdates is AppendUpdates for updates the caller has
// applied to a yjs.Doc without error (the realtime rooms store what they
// applied, or merged from what they applied): applying decoded them
// whole, so they are not decoded again here (a second full decode per
// update, about 5 % of the realtime path's allocations at saturation).
// Input the caller did not apply (REST bodies) goes to AppendUpdates.
func (s *Service) AppendAppliedUpdates(ctx context.Context, batch []Append) []error {
	errs := make([]error, len(batch))
	for i, a := range batch {
		errs[i] = checkEditor(a.Editor)
	}
	return s.appendChecked(ctx, batch, errs, true)
}

// appendChecked appends the items of batch without an error in errs
// (their editor and update checked) and returns errs filled in. applied:
// the updates come from realtime rooms, which hold them (see
// createdByRoom).
func (s *Service) appendChecked(ctx context.Context, batch []Append, errs []error, applied bool) []error {
	s.learnEditors(ctx, batch, errs)
	entries := make([]WorkspaceEntry, 0, len(batch))
	from := make([]int, 0, len(batch)) // batch index of each entry
	for i, a := range batch {
		if errs[i] != nil {
			continue
		}
		k := WorkspaceEditor{a.Workspace, a.Editor}
		size, ok := s.editors.size(k)
		if !ok {
			at := s.now()
			created, err := s.createFromUpdate(ctx, a)
			if created && applied {
				s.editors.createdByRoom(k, at)
			}
			if created || (err != nil && !errors.Is(err, ErrExists)) {
				errs[i] = err
				continue
			}
			if err == nil {
				continue // no content yet: nothing to keep
			}
			if size, err = s.learnSize(ctx, k); err != nil { // created elsewhere meanwhile
				errs[i] = err
				continue
			}
		}
		if err := s.checkSize(a.Editor, size, int64(len(a.Update))); err != nil {
			errs[i] = err
			continue
		}
		entries = append(entries, WorkspaceEntry{Workspace: a.Workspace, LogEntry: LogEntry{
			Editor: a.Editor, Update: a.Update, At: lastUpdateTime(s.now()), UserID: a.UserID,
		}})
		from = append(from, i)
	}
	for j, err := range s.store.AppendLog(ctx, entries) {
		i := from[j]
		if errs[i] = err; err == nil {
			k := WorkspaceEditor{batch[i].Workspace, batch[i].Editor}
			s.editors.wrote(k, entries[j].At)
			s.editors.appendedEntry(k, entries[j].LogEntry)
			if s.editors.appended(k, int64(len(batch[i].Update)), s.settings) {
				s.compactLater(k.Workspace, k.Editor)
			}
		}
	}
	return errs
}

// learnEditors asks the store, in one read, which editors of the batch
// that the cache does not know have data (not those a read found
// without: their first append creates them, see noData).
func (s *Service) learnEditors(ctx context.Context, batch []Append, errs []error) {
	var unknown []WorkspaceEditor
	for i, a := range batch {
		k := WorkspaceEditor{a.Workspace, a.Editor}
		if _, ok := s.editors.size(k); !ok && errs[i] == nil && !s.editors.foundAbsent(k) && !slices.Contains(unknown, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return
	}
	sizes, err := s.store.StateSizes(ctx, unknown)
	if err != nil {
		for i, a := range batch {
			if errs[i] == nil && slices.Contains(unknown, WorkspaceEditor{a.Workspace, a.Editor}) {
				errs[i] = err
			}
		}
		return
	}
	for k, size := range sizes {
		s.editors.known(k, size)
	}
}

// learnSize asks the store for the size of an editor that another door
// created after this replica learned it had none.
func (s *Service) learnSize(ctx context.Context, k WorkspaceEditor) (int64, error) {
	sizes, err := s.store.StateSizes(ctx, []WorkspaceEditor{k})
	if err != nil {
		return 0, err
	}
	s.editors.known(k, sizes[k])
	return sizes[k], nil
}

// createFromUpdate creates the editor from its first update: created
// reports that the update is stored as the editor's state; false with a
// nil error means the update has no content. ErrExists: the editor has
// data (another replica created it).
func (s *Service) createFromUpdate(ctx context.Context, a Append) (created bool, err error) {
	d := yjs.NewDoc(1)
	if err := d.ApplyUpdate(a.Update); err != nil {
		return false, api.Errorf(api.InvalidArgument, "malformed Yjs update: %v", err)
	}
	key, typ := rootOf(d)
	if key == "" {
		return false, nil
	}
	if err := s.checkSize(a.Editor, 0, int64(len(a.Update))); err != nil {
		return false, err
	}
	st := State{
		Editor: a.Editor, Type: typ, ContentKey: key, Update: a.Update, Version: 1,
		LastUpdate: lastUpdateTime(s.now()), LastUpdatedBy: a.UserID,
	}
	if st.Data, err = readContent(d, st, FormatDefault); err != nil {
		st.Data = nil
	}
	if err := s.store.InsertState(ctx, a.Workspace, st); err != nil {
		return false, err
	}
	s.editors.known(WorkspaceEditor{a.Workspace, a.Editor}, int64(len(a.Update)))
	s.editors.describe(WorkspaceEditor{a.Workspace, a.Editor}, st)
	return true, nil
}

// rootOf finds the root that holds content and its type ("" when none).
func rootOf(d *yjs.Doc) (key, typ string) {
	names := d.Roots()
	slices.Sort(names)
	for _, name := range names {
		for _, typ := range []string{"map", "xml", "text", "array"} {
			if d.CheckRoot(name, kindOf(typ)) == nil && hasContent(d, name, typ) {
				return name, typ
			}
		}
	}
	return "", ""
}

// hasContent reports whether root name holds content of typ.
func hasContent(d *yjs.Doc, name, typ string) bool {
	entries, sequence := d.RootHolds(name)
	if typ == "map" {
		return entries
	}
	return sequence
}
