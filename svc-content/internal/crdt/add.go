package crdt

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// Add stores the first state of an editor's data: INVALID_ARGUMENT when
// data does not match type, ALREADY_EXISTS when the editor id has data.
// userID (optional) is recorded as lastUpdatedBy.
func (s *Service) Add(ctx context.Context, ws string, ed Editor, c Content, userID string) error {
	if err := checkEditor(ed); err != nil {
		return err
	}
	key := c.ContentKey
	if key == "" {
		key = DefaultContentKey
	}
	if err := checkContentKey(key); err != nil {
		return err
	}
	p, err := parseContent(c.Type, c.Data, c.Type == "xml" && key == TipTapContentKey)
	if err != nil {
		return err
	}
	d := yjs.NewDoc(uint64(newClientID()))
	update, err := writeContent(d, key, p)
	if err != nil {
		return err
	}
	if update == nil { // empty content: a state with no structs
		update = []byte{0, 0}
	}
	if err := s.checkSize(ed, 0, int64(len(update))); err != nil {
		return err
	}
	st := State{
		Editor: ed, Type: c.Type, ContentKey: key, ProseMirror: p.proseMirror, Update: update,
		Version: 1, LastUpdate: lastUpdateTime(s.now()), LastUpdatedBy: userID,
	}
	if st.Data, err = readContent(d, st, FormatDefault); err != nil {
		return err
	}
	if err := s.store.InsertState(ctx, ws, st); errors.Is(err, ErrExists) {
		return api.Errorf(api.AlreadyExists, "CRDT data already exists for editor id %s", ed.EditorID)
	} else if err != nil {
		return err
	}
	s.editors.known(WorkspaceEditor{ws, ed}, int64(len(update)))
	s.editors.describe(WorkspaceEditor{ws, ed}, st)
	return s.publish(ctx, ws, EventAdd, published{ed: ed, data: st.Data, lastUpdate: st.LastUpdate, by: userID}, update)
}

// checkEditor repeats the required-field checks for callers other than
// the HTTP handlers.
func checkEditor(ed Editor) error {
	for _, f := range []struct{ name, v string }{
		{"organizationId", ed.OrganizationID}, {"documentId", ed.DocumentID}, {"editorId", ed.EditorID},
	} {
		if f.v == "" {
			return api.Errorf(api.InvalidArgument, "field %s is required", f.name)
		}
	}
	return nil
}

// newClientID is a random Yjs client id, as Yjs picks one per Y.Doc.
func newClientID() uint32 {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return binary.LittleEndian.Uint32(b[:])
}
