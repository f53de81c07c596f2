package crdt

import (
	"context"
	"errors"

	"github.com/opencollab/backend/pkg/api"
)

// current is an editor's stored state with the log entries after it:
// together they are the editor's document.
type current struct {
	state State
	log   []LogEntry
}

// loadCurrent reads the editor's document; ErrNotFound when it has no
// state.
func (s *Service) loadCurrent(ctx context.Context, ws string, ed Editor) (current, error) {
	st, log, err := s.store.FindCurrent(ctx, ws, ed)
	if err != nil {
		return current{}, err
	}
	return current{state: st, log: log}, nil
}

// mustLoadCurrent is loadCurrent answering NOT_FOUND for an editor
// without data.
func (s *Service) mustLoadCurrent(ctx context.Context, ws string, ed Editor) (current, error) {
	c, err := s.loadCurrent(ctx, ws, ed)
	if errors.Is(err, ErrNotFound) {
		return c, api.Errorf(api.NotFound, "no CRDT data for editor id %s; create it with /v2/crdt/add", ed.EditorID)
	}
	return c, err
}

// size is the stored bytes of the document: state plus log.
func (c current) size() int64 {
	n := int64(len(c.state.Update))
	for _, e := range c.log {
		n += int64(len(e.Update))
	}
	return n
}

// updates are the state and the logged updates, in order.
func (c current) updates() [][]byte {
	all := make([][]byte, 0, len(c.log)+1)
	if len(c.state.Update) > 0 {
		all = append(all, c.state.Update)
	}
	for _, e := range c.log {
		all = append(all, e.Update)
	}
	return all
}

// latest is the state with the time and author of the last logged update.
func (c current) latest() State {
	st := c.state
	for _, e := range c.log {
		if !e.At.Before(st.LastUpdate) {
			st.LastUpdate, st.LastUpdatedBy = e.At, e.UserID
		}
	}
	return st
}

// checkSize refuses a write that would make the document larger than the
// limit.
func (s *Service) checkSize(ed Editor, stored, adding int64) error {
	if limit := s.settings.MaxDocumentBytes; stored+adding > limit {
		return api.Errorf(api.InvalidArgument,
			"editor id %s would hold %d bytes of Yjs data (%d stored + %d new); the limit is %d bytes (CRDT_MAX_DOCUMENT_BYTES)",
			ed.EditorID, stored+adding, stored, adding, limit)
	}
	return nil
}
