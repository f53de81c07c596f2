package crdt

import (
	"sync"
	"time"
)

// editorCache is everything this replica remembers about an editor
// between calls, in one entry per editor, so the realtime paths read the
// store only for what they cannot know:
//
//   - its size and what was logged since the last compaction seen here,
//     or that a read found no data (editorstats.go): an append needs no
//     read to learn whether the editor exists or that its log wants
//     compacting;
//   - its facts (editorstats.go): an edit event is published without a
//     read;
//   - the log entries appended here since its last compaction
//     (editorlog.go): a compaction takes them instead of reading the log;
//   - the log sequences appended here that no catch-up passed yet
//     (editorlog.go): a catch-up does not read them back;
//   - whether this replica compacts it now: no second compaction starts.
//
// Everything but the compaction flag is a hint: forgetting it costs a
// read, never a wrong answer. The store's own hints (its probe positions,
// logkeys.go) belong to the store and live there.
//
// One mutex guards the whole cache; no method calls out while holding it.
type editorCache struct {
	mu sync.Mutex
	m  map[WorkspaceEditor]*editorEntry
	// loggedTotal is the bytes of every editor's kept log entries, held
	// under maxLoggedTotalBytes.
	loggedTotal int64
}

// The bounds of what is remembered; past one, what it bounds is dropped
// and read from the store when needed again.
const (
	// maxCachedEditors bounds the editors remembered; a new editor past
	// it makes the cache start over (see entry).
	maxCachedEditors = 100_000
	// maxLoggedBytes bounds the log entries kept per editor; past it they
	// are dropped and the next compaction reads the log.
	maxLoggedBytes = 2 * DefaultCompactBytes
	// maxLoggedTotalBytes bounds the kept entries of all editors together:
	// an idle editor keeps its entries until its next compaction, so
	// without it many editors' logs below the compaction threshold could
	// grow the process without bound. Past it the editor appended to
	// stops keeping (its next compaction reads the log).
	maxLoggedTotalBytes = 64 << 20
	// maxSeqRuns bounds the runs of appended sequences kept per editor
	// (the oldest go first).
	maxSeqRuns = 64
)

// editorEntry is what is remembered of one editor; the zero value
// remembers nothing.
type editorEntry struct {
	sized       bool  // size and the logged counts are known: the editor has data
	size        int64 // state size when learned, plus what this replica logged since
	logged      int   // entries this replica logged since the last compaction it saw
	loggedBytes int64
	facts       *editorFacts  // nil: not described
	log         loggedEntries // entries this replica appended since its last compaction here
	seqs        []seqRun      // sequences appended here that no catch-up passed, oldest first
	compacting  bool          // a compaction of this replica runs
	// absent: a read found no data and nothing showed data since, so the
	// first append creates the editor without asking the store first.
	absent bool
	// createdAt: this replica created the editor (its version 1) from an
	// update a realtime room applied, and no load read it since
	// (editorlog.go); zero otherwise.
	createdAt time.Time
}

// editorFacts are what an edit event tells besides the content: what the
// editor is (fixed at creation) and when it was last written, as far as
// this replica saw (its own writes and what it read).
type editorFacts struct {
	typ         string
	contentKey  string
	proseMirror bool
	lastUpdate  time.Time
}

// loggedEntries are kept log entries, oldest first, and their bytes.
type loggedEntries struct {
	entries []LogEntry
	bytes   int64
}

// seqRun is the sequences from through to.
type seqRun struct{ from, to int64 }

func newEditorCache() *editorCache {
	return &editorCache{m: map[WorkspaceEditor]*editorEntry{}}
}

// entry returns k's entry, made when missing; c.mu held. A new editor
// past maxCachedEditors makes the cache start over: one eviction for
// everything, so no editor is half remembered.
func (c *editorCache) entry(k WorkspaceEditor) *editorEntry {
	if e, ok := c.m[k]; ok {
		return e
	}
	if len(c.m) >= maxCachedEditors {
		c.dropAll()
	}
	e := &editorEntry{}
	c.m[k] = e
	return e
}

// dropAll forgets every editor; c.mu held. A running compaction keeps its
// flag (it is not a hint: it keeps a second compaction from starting).
func (c *editorCache) dropAll() {
	for k, e := range c.m {
		if e.compacting {
			c.m[k] = &editorEntry{compacting: true}
		} else {
			delete(c.m, k)
		}
	}
	c.loggedTotal = 0
}

// tidy removes k's entry once it remembers nothing; c.mu held.
func (c *editorCache) tidy(k WorkspaceEditor, e *editorEntry) {
	if !e.sized && !e.absent && e.createdAt.IsZero() && e.facts == nil && len(e.log.entries) == 0 && len(e.seqs) == 0 && !e.compacting {
		delete(c.m, k)
	}
}

// forget drops every remembered editor (their keys changed).
func (c *editorCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropAll()
}

// startCompaction reports whether the caller may compact the editor (no
// compaction of this replica runs).
func (c *editorCache) startCompaction(k WorkspaceEditor) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entry(k)
	if e.compacting {
		return false
	}
	e.compacting = true
	return true
}

func (c *editorCache) endCompaction(k WorkspaceEditor) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[k]; ok {
		e.compacting = false
		c.tidy(k, e)
	}
}
