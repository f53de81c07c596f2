package crdt

import (
	"slices"
	"sync"
	"time"
)

// editorCache remembers, per replica, the editors known to have data and
// how much was logged for them since, so the realtime append path neither
// reads the store to learn that an editor exists nor to learn when its
// log wants compacting. A forgotten editor costs one read.
type editorCache struct {
	mu sync.Mutex
	m  map[WorkspaceEditor]*editorStats
	// compacting are the editors this replica compacts now.
	compacting map[WorkspaceEditor]bool
	// described are what an edit event needs besides the content, for the
	// editors this replica loaded or created (see describe).
	described map[WorkspaceEditor]*editorFacts
	// logged are the entries this replica appended to each editor's log
	// since its last compaction here, oldest first: a compaction takes
	// them from here instead of reading the log (see loadForCompaction).
	logged map[WorkspaceEditor]*loggedEntries
	// loggedTotal is the bytes of every editor's kept entries, held under
	// maxLoggedTotalBytes.
	loggedTotal int64
}

type loggedEntries struct {
	entries []LogEntry
	bytes   int64
}

// maxLoggedBytes bounds the entries kept per editor; past it they are
// dropped and the next compaction reads the log.
const maxLoggedBytes = 2 * DefaultCompactBytes

// maxLoggedTotalBytes bounds the kept entries of all editors together: an
// idle editor keeps its entries until its next compaction, so without it
// many editors' logs below the compaction threshold could grow the
// process without bound. Past it the editor appended to stops keeping
// (its next compaction reads the log, as before the entries were kept).
const maxLoggedTotalBytes = 64 << 20

// editorFacts are what an edit event tells besides the content: what the
// editor is (fixed at creation) and when it was last written, as far as
// this replica saw (its own writes and what it read).
type editorFacts struct {
	typ         string
	contentKey  string
	proseMirror bool
	lastUpdate  time.Time
}

type editorStats struct {
	size        int64 // state size when learned, plus what this replica logged since
	logged      int   // entries this replica logged since the last compaction it saw
	loggedBytes int64
}

// maxCachedEditors bounds the cache; past it the cache starts over.
const maxCachedEditors = 100_000

func newEditorCache() *editorCache {
	return &editorCache{
		m: map[WorkspaceEditor]*editorStats{}, compacting: map[WorkspaceEditor]bool{},
		described: map[WorkspaceEditor]*editorFacts{}, logged: map[WorkspaceEditor]*loggedEntries{},
	}
}

// size returns the known size of an editor with data.
func (c *editorCache) size(k WorkspaceEditor) (int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	st, ok := c.m[k]
	if !ok {
		return 0, false
	}
	return st.size, true
}

// known records an editor that has data, of this size.
func (c *editorCache) known(k WorkspaceEditor, size int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= maxCachedEditors {
		clear(c.m)
	}
	if _, ok := c.m[k]; !ok {
		c.m[k] = &editorStats{size: size}
	}
}

// appended counts a logged update and reports whether the log now wants
// compacting.
func (c *editorCache) appended(k WorkspaceEditor, n int64, s Settings) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	st, ok := c.m[k]
	if !ok {
		return false
	}
	st.size += n
	st.logged++
	st.loggedBytes += n
	return st.logged >= s.CompactEntries || st.loggedBytes >= s.CompactBytes
}

// compacted records a stored state of size bytes.
func (c *editorCache) compacted(k WorkspaceEditor, size int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.m[k]; ok {
		st.size, st.logged, st.loggedBytes = size, 0, 0
	}
}

// appendedEntry keeps an entry this replica stored in k's log.
func (c *editorCache) appendedEntry(k WorkspaceEditor, e LogEntry) {
	if e.Seq <= 0 {
		return // the previous writer's log: read by query
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	l := c.logged[k]
	if l == nil {
		if len(c.logged) >= maxCachedEditors {
			c.clearLogged()
		}
		l = &loggedEntries{}
		c.logged[k] = l
	}
	l.entries = append(l.entries, e)
	l.bytes += int64(len(e.Update))
	c.loggedTotal += int64(len(e.Update))
	if l.bytes > maxLoggedBytes || c.loggedTotal > maxLoggedTotalBytes {
		c.loggedTotal -= l.bytes
		delete(c.logged, k)
	}
}

// clearLogged drops every editor's kept entries.
func (c *editorCache) clearLogged() {
	clear(c.logged)
	c.loggedTotal = 0
}

// loggedAfter returns the entries kept for k after sequence seq (those up
// to it are merged and forgotten); ok only when they are the whole log
// after seq as far as this replica wrote it: they start at seq+1 with no
// gap (a gap is an entry of another replica, or one appended before this
// replica started keeping them).
func (c *editorCache) loggedAfter(k WorkspaceEditor, seq int64) ([]LogEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	l := c.logged[k]
	if l == nil {
		return nil, false
	}
	c.loggedTotal -= l.dropThrough(seq)
	if len(l.entries) == 0 || l.entries[0].Seq != seq+1 {
		return nil, false
	}
	for i := 1; i < len(l.entries); i++ {
		if l.entries[i].Seq != l.entries[i-1].Seq+1 {
			return nil, false
		}
	}
	return slices.Clone(l.entries), true
}

// keepsLog reports whether entries of k are kept.
func (c *editorCache) keepsLog(k WorkspaceEditor) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	l := c.logged[k]
	return l != nil && len(l.entries) > 0
}

// mergedThrough forgets k's kept entries up to seq (a stored state holds
// them).
func (c *editorCache) mergedThrough(k WorkspaceEditor, seq int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if l := c.logged[k]; l != nil {
		c.loggedTotal -= l.dropThrough(seq)
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

// startCompaction reports whether the caller may compact the editor (no
// compaction of this replica runs).
func (c *editorCache) startCompaction(k WorkspaceEditor) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.compacting[k] {
		return false
	}
	c.compacting[k] = true
	return true
}

func (c *editorCache) endCompaction(k WorkspaceEditor) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.compacting, k)
}

// forget drops every remembered editor.
func (c *editorCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.m)
	clear(c.described)
	c.clearLogged()
}

// describe records what a read or a creation showed of the editor: its
// kind and the time of its latest write.
func (c *editorCache) describe(k WorkspaceEditor, st State) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.described) >= maxCachedEditors {
		clear(c.described)
	}
	c.described[k] = &editorFacts{typ: st.Type, contentKey: st.ContentKey, proseMirror: st.ProseMirror, lastUpdate: st.LastUpdate}
}

// wrote advances the described editor's last write to at.
func (c *editorCache) wrote(k WorkspaceEditor, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.described[k]; ok && at.After(f.lastUpdate) {
		f.lastUpdate = at
	}
}

// facts returns what is known of a described editor: its State without
// content (Type, ContentKey, ProseMirror, LastUpdate).
func (c *editorCache) facts(k WorkspaceEditor) (State, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f, ok := c.described[k]
	if !ok {
		return State{}, false
	}
	return State{Editor: k.Editor, Type: f.typ, ContentKey: f.contentKey, ProseMirror: f.proseMirror, LastUpdate: f.lastUpdate}, true
}
