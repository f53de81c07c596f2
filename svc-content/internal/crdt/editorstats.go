package crdt

import "time"

// size returns the known size of an editor with data.
func (c *editorCache) size(k WorkspaceEditor) (int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	if !ok || !e.sized {
		return 0, false
	}
	return e.size, true
}

// known records an editor that has data, of this size.
func (c *editorCache) known(k WorkspaceEditor, size int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.entry(k); !e.sized {
		e.sized, e.size, e.logged, e.loggedBytes, e.absent = true, size, 0, 0, false
	}
}

// noData records that a read found no data for k. It may turn stale
// (another replica creates the editor): the creation it leads to then
// fails on the editor's unique version 1 and the append asks the store.
func (c *editorCache) noData(k WorkspaceEditor) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.entry(k); !e.sized {
		e.absent = true
	}
}

// foundAbsent reports whether a read found no data for k and nothing
// showed data since.
func (c *editorCache) foundAbsent(k WorkspaceEditor) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	return ok && !e.sized && e.absent
}

// appended counts a logged update and reports whether the log now wants
// compacting.
func (c *editorCache) appended(k WorkspaceEditor, n int64, s Settings) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	if !ok || !e.sized {
		return false
	}
	e.size += n
	e.logged++
	e.loggedBytes += n
	return s.wantsCompaction(e.logged, e.loggedBytes, e.size-e.loggedBytes)
}

// compacted records a stored state of size bytes.
func (c *editorCache) compacted(k WorkspaceEditor, size int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[k]; ok && e.sized {
		e.size, e.logged, e.loggedBytes = size, 0, 0
	}
}

// describe records what a read or a creation showed of the editor: its
// kind and the time of its latest write.
func (c *editorCache) describe(k WorkspaceEditor, st State) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entry(k).facts = &editorFacts{typ: st.Type, contentKey: st.ContentKey, proseMirror: st.ProseMirror, lastUpdate: st.LastUpdate}
}

// wrote advances the described editor's last write to at.
func (c *editorCache) wrote(k WorkspaceEditor, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[k]; ok && e.facts != nil && at.After(e.facts.lastUpdate) {
		e.facts.lastUpdate = at
	}
}

// facts returns what is known of a described editor: its State without
// content (Type, ContentKey, ProseMirror, LastUpdate).
func (c *editorCache) facts(k WorkspaceEditor) (State, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	if !ok || e.facts == nil {
		return State{}, false
	}
	f := e.facts
	return State{Editor: k.Editor, Type: f.typ, ContentKey: f.contentKey, ProseMirror: f.proseMirror, LastUpdate: f.lastUpdate}, true
}
