package crdt

import (
	"context"
	"slices"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// Update changes an editor's document in one of two ways. With Data, the
// new content is written as the diff from the stored state (text patched
// between common prefix and suffix, map keys set or deleted one by one,
// arrays and XML children replaced between the equal ones at both ends),
// so peers that hold the old state converge without duplicates. With
// Update, a client's Yjs update (v1) is merged as it is; it may write
// nothing but the editor's root type. Either way the change is logged
// after the state (compaction merges it) and concurrent updates all
// survive. NOT_FOUND when the editor id has no data; INVALID_ARGUMENT when
// data does not match type, type or contentKey (when given) differ from
// the stored ones, or the update is malformed or writes another root.
func (s *Service) Update(ctx context.Context, ws string, ed Editor, c Content, userID string) error {
	if err := checkUpdate(ed, c); err != nil {
		return err
	}
	cur, err := s.mustLoadCurrent(ctx, ws, ed)
	if err != nil {
		return err
	}
	if err := compatible(cur.state, c); err != nil {
		return err
	}
	d, err := loadDoc(cur.state.Update, cur.log)
	if err != nil {
		return err
	}
	update := c.Update
	if update != nil {
		err = applyClientUpdate(d, cur.state, update)
	} else {
		update, err = writeData(d, cur.state, c)
	}
	if err != nil || update == nil {
		return err // nil update: the content is what is stored
	}
	if err := s.checkSize(ed, cur.size(), int64(len(update))); err != nil {
		return err
	}
	at := lastUpdateTime(s.now())
	entry := WorkspaceEntry{Workspace: ws, LogEntry: LogEntry{Editor: ed, Update: update, At: at, UserID: userID}}
	if err := s.store.AppendLog(ctx, []WorkspaceEntry{entry})[0]; err != nil {
		return err
	}
	cur.log = append(cur.log, entry.LogEntry)
	s.editors.describe(WorkspaceEditor{ws, ed}, cur.latest())
	s.compactIfLong(ws, cur)
	data, err := readContent(d, cur.state, FormatDefault)
	if err != nil {
		return err
	}
	return s.publish(ctx, ws, EventUpdate, published{ed: ed, data: data, lastUpdate: at, by: userID}, update)
}

// checkUpdate checks the request before anything is read.
func checkUpdate(ed Editor, c Content) error {
	if err := checkEditor(ed); err != nil {
		return err
	}
	switch {
	case c.Update != nil && c.Data != nil:
		return api.Errorf(api.InvalidArgument, "give either data or update, not both")
	case c.Update == nil && c.Data == nil:
		return api.Errorf(api.InvalidArgument, "field data (new content) or update (a base64 Yjs update) is required")
	case c.Data != nil && c.Type == "":
		return api.Errorf(api.InvalidArgument, "field type is required with data")
	}
	if c.Update != nil {
		if err := yjs.ValidateUpdate(c.Update); err != nil {
			return api.Errorf(api.InvalidArgument, "field update is not a Yjs update (v1): %v", err)
		}
	}
	if c.ContentKey != "" {
		return checkContentKey(c.ContentKey)
	}
	return nil
}

// compatible refuses an update that would change what the stored
// document is.
func compatible(st State, c Content) error {
	if c.Type != "" && c.Type != st.Type {
		return api.Errorf(api.InvalidArgument, "type %s does not match the stored type %s of editor id %s", c.Type, st.Type, st.EditorID)
	}
	if c.ContentKey != "" && c.ContentKey != st.ContentKey {
		return api.Errorf(api.InvalidArgument, "contentKey %s does not match the stored contentKey %s of editor id %s", c.ContentKey, st.ContentKey, st.EditorID)
	}
	return nil
}

// writeData writes c.Data into d as a diff and returns its update.
func writeData(d *yjs.Doc, st State, c Content) ([]byte, error) {
	p, err := parseContent(st.Type, c.Data, st.tipTap())
	if err != nil {
		return nil, err
	}
	if p.proseMirror && !st.tipTap() {
		return nil, api.Errorf(api.InvalidArgument,
			"editor id %s holds generic XML (contentKey %s); ProseMirror JSON is for TipTap editors (contentKey default)", st.EditorID, st.ContentKey)
	}
	if err := d.CheckRoot(st.ContentKey, kindOf(st.Type)); err != nil {
		return nil, api.Errorf(api.FailedPrecondition, "editor id %s cannot take new data: %v", st.EditorID, err)
	}
	return writeContent(d, st.ContentKey, p)
}

// applyClientUpdate merges a client's update into d, refusing one that
// writes a root other than the editor's or content its type cannot hold.
func applyClientUpdate(d *yjs.Doc, st State, update []byte) error {
	before := d.Roots()
	if err := d.ApplyUpdate(update); err != nil {
		return api.Errorf(api.InvalidArgument, "field update is not a Yjs update (v1): %v", err)
	}
	for _, name := range d.Roots() {
		if name != st.ContentKey && !slices.Contains(before, name) {
			return api.Errorf(api.InvalidArgument,
				"the update writes the root type %q; editor id %s holds only %q (its contentKey)", name, st.EditorID, st.ContentKey)
		}
	}
	if err := d.CheckRoot(st.ContentKey, kindOf(st.Type)); err != nil {
		return api.Errorf(api.InvalidArgument, "the update does not fit editor id %s of type %s: %v", st.EditorID, st.Type, err)
	}
	return nil
}
