package crdt

import (
	"context"
	"errors"
	"time"

	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// A realtime room holds its document in memory and still has to see what
// other replicas and REST writes stored when their fan-out message was
// lost, so it catches up with the store every 30 s. Reading the whole log
// for that costs a read per entry, for entries the room already holds
// (most of them its own). A catch-up reads only what the room lacks: the
// log slots after its Mark that this replica did not append, and a newer
// state only when it merged entries the room never saw.

// Mark is how far a reader holds an editor's stored document: the state
// Version it saw latest and every log entry up to LogSeq (read, merged in
// a state it read, or appended by this replica), as of At. The zero Mark
// holds nothing.
type Mark struct {
	Version, LogSeq int64
	At              time.Time
}

// LoadMarked is LoadUpdate with the Mark of what it read.
func (s *Service) LoadMarked(ctx context.Context, ws string, ed Editor) ([]byte, Mark, error) {
	at := s.now()
	k := WorkspaceEditor{ws, ed}
	s.editors.loaded(k)
	c, err := s.loadCurrent(ctx, ws, ed)
	if errors.Is(err, ErrNotFound) {
		s.editors.noData(k) // its first append creates it without a query
		return nil, Mark{}, nil
	} else if err != nil {
		return nil, Mark{}, err
	}
	s.editors.known(k, c.size()) // its appends need no query for its size
	s.editors.describe(k, c.latest())
	s.compactIfLong(ws, c)
	update, err := yjs.MergeUpdates(c.updates()...)
	if err != nil {
		return nil, Mark{}, err
	}
	return update, c.mark(at), nil
}

// mark is the Mark of a reader that read c (zero for a log of the
// previous writer, which is read by query).
func (c current) mark(at time.Time) Mark {
	if !c.state.keyedLog {
		return Mark{}
	}
	m := Mark{Version: c.state.Version, LogSeq: c.state.LogSeq, At: at}
	for _, e := range c.log {
		m.LogSeq = max(m.LogSeq, e.Seq)
	}
	return m
}

// CatchUp returns what the editor's store holds beyond since that this
// replica did not append itself, as one update (nil: nothing), and the
// Mark of the caller once it applied it. The caller must hold every
// update this replica appended to the editor after since (the realtime
// room: this replica appends only its updates). A zero since, or one
// older than the store keeps replaced versions for sure (hintTrust),
// reads the whole document as LoadMarked; a zero since of the room whose
// update created the editor here counts from version 1, which that room
// holds (creationMark: a catch-up of 2 finds instead of a read of the
// whole log, TestCatchUpOfTheRoomThatCreatedTheEditor).
func (s *Service) CatchUp(ctx context.Context, ws string, ed Editor, since Mark) ([]byte, Mark, error) {
	k := WorkspaceEditor{ws, ed}
	since = s.editors.creationMark(k, since)
	if since.Version == 0 || s.now().Sub(since.At) >= hintTrust {
		update, m, err := s.LoadMarked(ctx, ws, ed)
		s.editors.heldThrough(k, m.LogSeq)
		return update, m, err
	}
	missing, err := s.store.FindMissing(ctx, ws, ed, since, func(seq int64) bool { return s.editors.appendedSeq(k, seq) })
	if err != nil {
		return nil, since, err
	}
	s.editors.heldThrough(k, missing.Mark.LogSeq)
	var parts [][]byte
	if missing.State != nil {
		parts = append(parts, missing.State.Update)
	}
	for _, e := range missing.Log {
		parts = append(parts, e.Update)
	}
	switch len(parts) {
	case 0:
		return nil, missing.Mark, nil
	case 1:
		return parts[0], missing.Mark, nil
	}
	update, err := yjs.MergeUpdates(parts...)
	return update, missing.Mark, err
}

// Missing is what a reader at a Mark lacks of an editor's store: the
// latest state when it merged entries the reader never saw (nil
// otherwise), the log entries after the Mark it does not hold, and the
// reader's Mark once it has them.
type Missing struct {
	State *State
	Log   []LogEntry
	Mark  Mark
}
