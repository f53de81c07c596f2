package crdt

import (
	"slices"
	"time"
)

// appendedEntry keeps an entry this replica stored in k's log: its entry
// for the next compaction here (see loadForCompaction) and its sequence
// for the catch-ups (see CatchUp).
func (c *editorCache) appendedEntry(k WorkspaceEditor, le LogEntry) {
	if le.Seq <= 0 {
		return // the previous writer's log: read by query
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entry(k)
	e.addSeq(le.Seq)
	e.log.entries = append(e.log.entries, le)
	e.log.bytes += int64(len(le.Update))
	c.loggedTotal += int64(len(le.Update))
	if e.log.bytes > maxLoggedBytes || c.loggedTotal > maxLoggedTotalBytes {
		c.loggedTotal -= e.log.bytes
		e.log = loggedEntries{}
	}
}

// loggedAfter returns the entries kept for k after sequence seq (those up
// to it are merged and forgotten); ok only when they are the whole log
// after seq as far as this replica wrote it: they start at seq+1 with no
// gap (a gap is an entry of another replica, or one appended before this
// replica started keeping them).
func (c *editorCache) loggedAfter(k WorkspaceEditor, seq int64) ([]LogEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	if !ok {
		return nil, false
	}
	c.loggedTotal -= e.log.dropThrough(seq)
	l := e.log.entries
	if len(l) == 0 || l[0].Seq != seq+1 {
		return nil, false
	}
	for i := 1; i < len(l); i++ {
		if l[i].Seq != l[i-1].Seq+1 {
			return nil, false
		}
	}
	return slices.Clone(l), true
}

// keepsLog reports whether entries of k are kept.
func (c *editorCache) keepsLog(k WorkspaceEditor) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	return ok && len(e.log.entries) > 0
}

// mergedThrough forgets k's kept entries up to seq (a stored state holds
// them).
func (c *editorCache) mergedThrough(k WorkspaceEditor, seq int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[k]; ok {
		c.loggedTotal -= e.log.dropThrough(seq)
	}
}

// dropThrough forgets the entries up to seq and returns their bytes.
func (l *loggedEntries) dropThrough(seq int64) int64 {
	i, freed := 0, int64(0)
	for i < len(l.entries) && l.entries[i].Seq <= seq {
		freed += int64(len(l.entries[i].Update))
		i++
	}
	l.bytes -= freed
	l.entries = slices.Delete(l.entries, 0, i)
	return freed
}

// addSeq remembers an appended sequence, in runs of consecutive ones.
func (e *editorEntry) addSeq(seq int64) {
	if n := len(e.seqs); n > 0 && e.seqs[n-1].to+1 == seq {
		e.seqs[n-1].to = seq
	} else {
		e.seqs = append(e.seqs, seqRun{seq, seq})
	}
	if len(e.seqs) > maxSeqRuns {
		e.seqs = e.seqs[1:]
	}
}

// appendedSeq reports whether this replica appended k's sequence seq and
// no catch-up passed it since.
func (c *editorCache) appendedSeq(k WorkspaceEditor, seq int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	if !ok {
		return false
	}
	for _, r := range e.seqs {
		if r.from <= seq && seq <= r.to {
			return true
		}
	}
	return false
}

// heldThrough forgets k's appended sequences up to seq (a catch-up passed
// them).
func (c *editorCache) heldThrough(k WorkspaceEditor, seq int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	if !ok {
		return
	}
	kept := e.seqs[:0]
	for _, r := range e.seqs {
		if r.to > seq {
			r.from = max(r.from, seq+1)
			kept = append(kept, r)
		}
	}
	e.seqs = kept
	c.tidy(k, e)
}

// createdByRoom records that this replica created k at about at from an
// update a realtime room applied: that room loaded k before (finding no
// data, a zero Mark) and holds version 1, as it holds the log entries this
// replica appends for it (appendedSeq).
func (c *editorCache) createdByRoom(k WorkspaceEditor, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entry(k).createdAt = at
}

// loaded forgets k's creation by a room: a load read k (a room loaded
// since holds what it read, and its Mark says so).
func (c *editorCache) loaded(k WorkspaceEditor) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[k]; ok {
		e.createdAt = time.Time{}
	}
}

// creationMark is the Mark of a room that loaded k without data (zero
// since) and whose update created it here: it holds version 1, so its
// catch-up reads only what it lacks after it, not the whole editor.
// Otherwise since as it is.
func (c *editorCache) creationMark(k WorkspaceEditor, since Mark) Mark {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[k]; ok && since.Version == 0 && !e.createdAt.IsZero() {
		return Mark{Version: 1, At: e.createdAt}
	}
	return since
}
