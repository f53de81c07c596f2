package crdt

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// compactTimeout bounds a compaction from its read to its insert, so a
// late insert never lands in the slot of a version whose marker is gone
// (markerRetention).
const compactTimeout = time.Minute

// Compact merges the editor's log into a new state version and drops the
// merged entries. It is safe to run anywhere at any time: of concurrent
// compactions of one editor exactly one stores its state (the others
// drop nothing), and an entry is dropped only after a state holding it is
// stored, so a crash between the two only leaves entries that the next
// read merges again to no effect. Time and memory: the document's size.
func (s *Service) Compact(ctx context.Context, ws string, ed Editor) error {
	ctx, cancel := context.WithTimeout(ctx, compactTimeout)
	defer cancel()
	c, err := s.loadForCompaction(ctx, ws, ed)
	if errors.Is(err, ErrNotFound) {
		return nil // log entries without a state: the editor was moved (migration) or never created
	} else if err != nil {
		return err
	}
	if len(c.log) == 0 {
		if c.state.keyedLog && c.state.logFrom <= c.state.LogSeq && s.settled(c.state) { // entries merged before
			return s.store.DeleteLog(ctx, ws, c.state, nil)
		}
		return nil
	}
	d, err := loadDoc(c.state.Update, c.log)
	if err != nil {
		return err
	}
	next := c.latest()
	if next.Update, err = d.EncodeStateAsUpdate(nil); err != nil {
		return fmt.Errorf("crdt: encode state of %s: %w", ed.EditorID, err)
	}
	if next.Data, err = readContent(d, next, FormatDefault); err != nil {
		next.Data = nil // content that does not fit the type is read (and refused) at get
	}
	if len(next.Update)+len(next.Data) > maxStateDocBytes {
		next.Data = nil // read at get rather than over the store's document limit
	}
	next.Version++
	for _, e := range c.log {
		next.LogSeq = max(next.LogSeq, e.Seq)
	}
	switch err := s.store.InsertState(ctx, ws, next); {
	case errors.Is(err, ErrExists):
		return nil // another compaction stored this version; ours stay logged
	case err != nil:
		return err
	}
	if err := s.store.DeleteLog(ctx, ws, s.deletable(c.state, next), c.log); err != nil {
		return fmt.Errorf("crdt: drop merged log of %s: %w", ed.EditorID, err)
	}
	s.store.PruneStates(ctx, ws, next)
	s.editors.compacted(WorkspaceEditor{ws, ed}, int64(len(next.Update)))
	s.editors.mergedThrough(WorkspaceEditor{ws, ed}, next.LogSeq)
	return nil
}

// loadForCompaction is the editor's latest state and the log after it.
// When this replica appended that whole log (the realtime path: one
// replica writes a document's updates), the entries come from memory and
// the compaction costs one state read instead of one read per entry. It
// may be a prefix of the log (another replica's entries after it): the
// new state merges it and records its last sequence, so the rest stays
// logged. A compaction that another one overtook fails on the version's
// slot as before.
func (s *Service) loadForCompaction(ctx context.Context, ws string, ed Editor) (current, error) {
	k := WorkspaceEditor{ws, ed}
	if s.editors.keepsLog(k) {
		st, err := s.store.FindState(ctx, ws, ed)
		if err != nil {
			return current{}, err
		}
		if log, ok := s.editors.loggedAfter(k, st.LogSeq); ok && st.keyedLog {
			return current{state: st, log: log}, nil
		}
	}
	return s.loadCurrent(ctx, ws, ed)
}

// logDeleteLag is how old the entries a compaction deletes must be: a
// compaction deletes what the state it replaces had merged, once that
// state's last update is this old, and leaves what it merged itself to
// the next compaction. So a log slot is freed only logDeleteLag after it
// was written, and a replica that inserted an editor's entry seq less
// than appendTrust ago may insert seq+1 without reading back whether a
// compaction had passed it (logkeys.go): nobody can have written seq+1
// and had it deleted yet. It must stay well above appendTrust plus the
// clock skew between replicas plus how long one append takes.
const logDeleteLag = 2 * time.Minute

// settled reports whether the entries st merged are logDeleteLag old.
func (s *Service) settled(st State) bool { return s.now().Sub(st.LastUpdate) >= logDeleteLag }

// deletable is next limited to the log sequences old may free: those old
// merged when settled, none otherwise (logFrom stays, so the next
// compaction deletes them).
func (s *Service) deletable(old, next State) State {
	d := next
	d.LogSeq = d.logFrom - 1
	if old.keyedLog && s.settled(old) {
		d.LogSeq = max(old.LogSeq, d.LogSeq)
	}
	return d
}

// maxStateDocBytes bounds a state's update plus data below MongoDB's 16
// MiB document limit.
const maxStateDocBytes = 15 << 20

// compactIfLong compacts in the background when a read found a long log.
func (s *Service) compactIfLong(ws string, c current) {
	if len(c.log) >= s.settings.CompactEntries || c.size()-int64(len(c.state.Update)) >= s.settings.CompactBytes {
		s.compactLater(ws, c.state.Editor)
	}
}

// maxConcurrentCompactions is how many compactions a replica runs at once;
// the others wait their turn (at most one per editor).
const maxConcurrentCompactions = 2

// compactLater starts a background compaction of the editor unless one of
// this replica runs already.
func (s *Service) compactLater(ws string, ed Editor) {
	k := WorkspaceEditor{ws, ed}
	if !s.editors.startCompaction(k) {
		return
	}
	s.compactions.Add(1)
	go func() {
		defer s.compactions.Done()
		defer s.editors.endCompaction(k)
		// Few at once: compactions read whole logs, and a burst of them
		// (every busy editor crossing CompactEntries together) must not
		// take the store's connections from the writes clients wait for.
		s.compactSlots <- struct{}{}
		defer func() { <-s.compactSlots }()
		if err := s.Compact(context.Background(), ws, ed); err != nil {
			slog.Warn("crdt: compaction failed; the log stays and is merged at read", "editorId", ed.EditorID, "error", err)
		}
	}()
}
