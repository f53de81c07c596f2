package crdt

import (
	"context"
	"fmt"

	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// PublishEdited publishes crdt.update_data for the editor's current
// content on behalf of an editing session (realtime edits, debounced by
// the caller): lastUpdatedBy is userID, sessionId the session. It reads
// the editor's state and log; PublishEditedDocument does without.
func (s *Service) PublishEdited(ctx context.Context, ws string, ed Editor, userID, sessionID string) error {
	c, err := s.loadCurrent(ctx, ws, ed)
	if err != nil {
		return err
	}
	s.editors.describe(WorkspaceEditor{ws, ed}, c.latest())
	v, err := c.view(Query{})
	if err != nil {
		return err
	}
	p := published{ed: ed, data: v.Data, lastUpdate: c.latest().LastUpdate, by: userID}
	return s.publishEvent(ctx, ws, EventUpdate, p, sessionID)
}

// PublishEditedDocument is PublishEdited with the content read from doc,
// the editor's whole document as one update that a realtime room holds in
// memory (everything in it stored): an edit event then costs no store
// read. The editor's kind and last write time come from what this replica
// saw when it loaded and wrote the editor; without them (an editor this
// replica did not load, or forgot) it reads the store as PublishEdited.
// Across replicas lastUpdate is the last write this replica knows of (its
// own, and the others' as of its latest load or catch-up).
func (s *Service) PublishEditedDocument(ctx context.Context, ws string, ed Editor, doc []byte, userID, sessionID string) error {
	st, ok := s.editors.facts(WorkspaceEditor{ws, ed})
	if !ok || len(doc) == 0 {
		return s.PublishEdited(ctx, ws, ed, userID, sessionID)
	}
	d := yjs.NewDoc(uint64(newClientID()))
	if err := d.ApplyUpdate(doc); err != nil {
		return fmt.Errorf("crdt: the edited document of %s does not decode: %w", ed.EditorID, err)
	}
	data, err := readContent(d, st, FormatDefault)
	if err != nil {
		return err
	}
	p := published{ed: ed, data: data, lastUpdate: st.LastUpdate, by: userID}
	return s.publishEvent(ctx, ws, EventUpdate, p, sessionID)
}
