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
// entries the state it replaces merged (freeMerged). It is safe to run
// anywhere at any time: of concurrent compactions of one editor exactly
// one stores its state (the others drop only entries that every later
// state holds), and an entry is dropped only once a state holding it is
// stored, so a crash in between only leaves entries that the next read
// merges again to no effect. Time and memory: the document's size.
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
			if err := s.store.DeleteLog(ctx, ws, ed, c.state.logFrom, c.state.LogSeq, nil); err != nil {
				return err
			}
			return s.store.SetLogFrom(ctx, ws, c.state, c.state.LogSeq+1)
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
	if err := s.freeMerged(ctx, ws, c.state, &next); err != nil {
		return fmt.Errorf("crdt: drop merged log of %s: %w", ed.EditorID, err)
	}
	switch err := s.store.InsertState(ctx, ws, next); {
	case errors.Is(err, ErrExists):
		// Another compaction stored this version; ours stay logged. Its
		// version is read now, so the next compaction here starts from it
		// (FindStateToCompact does not look for newer ones). A failed read
		// changes nothing: the next compaction loses the same race and
		// reads again.
		_, _ = s.store.FindState(ctx, ws, ed)
		return nil
	case err != nil:
		return err
	}
	if legacy := previousWritersEntries(c.log); len(legacy) > 0 {
		if err := s.store.DeleteLog(ctx, ws, ed, 1, 0, legacy); err != nil { // no sequence: next merged them
			return fmt.Errorf("crdt: drop merged log of %s: %w", ed.EditorID, err)
		}
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
		st, err := s.store.FindStateToCompact(ctx, ws, ed)
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

// freeMerged deletes the log entries the replaced state old merged, once
// they are settled, before next (the state replacing it) is stored, and
// records in next that they are gone (logFrom), so storing next is the
// compaction's only write of a state (deleting after it cost an update
// of next, which the embedded store runs as a read and a rewrite of the
// whole state). It is safe before next is stored: old is stored and
// every later version derives from it (a version is a unique insert of
// the one after the latest), so whether next is stored, loses to another
// compaction or is never stored (a crash), what old merged stays in the
// latest state. A crash after the delete leaves old's logFrom behind,
// and the next compaction deletes that range again, finding nothing.
// What next merges itself stays logged until the compaction after it.
func (s *Service) freeMerged(ctx context.Context, ws string, old State, next *State) error {
	if !old.keyedLog || !s.settled(old) || old.LogSeq < old.logFrom {
		return nil
	}
	if err := s.store.DeleteLog(ctx, ws, old.Editor, old.logFrom, old.LogSeq, nil); err != nil {
		return err
	}
	next.logFrom = old.LogSeq + 1
	return nil
}

// previousWritersEntries are the entries of log without a sequence (the
// previous writer's log, read by query): a compaction deletes them once
// the state merging them is stored.
func previousWritersEntries(log []LogEntry) []LogEntry {
	var legacy []LogEntry
	for _, e := range log {
		if e.Seq == 0 {
			legacy = append(legacy, e)
		}
	}
	return legacy
}

// maxStateDocBytes bounds a state's update plus data below MongoDB's 16
// MiB document limit.
const maxStateDocBytes = 15 << 20

// compactIfLong compacts in the background when a read found a long log.
func (s *Service) compactIfLong(ws string, c current) {
	state := int64(len(c.state.Update))
	if s.settings.wantsCompaction(len(c.log), c.size()-state, state) {
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
