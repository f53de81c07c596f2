package crdt

import (
	"fmt"
	"testing"
	"time"
)

// Editors that stay under their compaction threshold keep their entries
// until the next compaction; all of them together must stay under the
// process-wide budget, and what is dropped or merged leaves the count true.
func TestKeptEntriesOfAllEditorsStayUnderTheBudget(t *testing.T) {
	t.Parallel()
	c := newEditorCache()
	update := make([]byte, 1<<20)
	const editors = 80 // 80 MiB offered, each editor 1 MiB: under its own limit
	for i := range editors {
		c.appendedEntry(cachedEditor(i), LogEntry{Seq: 1, Update: update})
	}
	var kept int64
	keeping := 0
	for _, e := range c.m {
		kept += e.log.bytes
		if len(e.log.entries) > 0 {
			keeping++
		}
	}
	if kept > 64<<20 { // the documented budget
		t.Fatalf("%d MiB kept for %d editors, budget 64 MiB", kept>>20, keeping)
	}
	if kept != c.loggedTotal {
		t.Fatalf("counted %d bytes, kept %d", c.loggedTotal, kept)
	}
	for k := range c.m {
		c.mergedThrough(k, 1)
	}
	if c.loggedTotal != 0 {
		t.Fatalf("after every merge %d bytes still counted", c.loggedTotal)
	}
}

// The cache evicts whole editors: once a new editor makes it start over,
// an editor remembers neither its size, nor its facts, nor its kept
// entries, nor its appended sequences (none is left to be trusted alone),
// and the kept bytes are counted no more. A running compaction keeps its
// flag, so a second one still cannot start.
func TestEvictingAnEditorDropsAllItKept(t *testing.T) {
	t.Parallel()
	c := newEditorCache()
	first, busy := cachedEditor(0), cachedEditor(1)
	c.known(first, 10)
	c.describe(first, State{Type: "text", LastUpdate: time.Unix(1, 0)})
	c.appendedEntry(first, LogEntry{Seq: 1, Update: []byte("u")})
	if !c.startCompaction(busy) {
		t.Fatal("no compaction runs, yet one may not start")
	}
	for i := 2; len(c.m) < maxCachedEditors; i++ {
		c.known(cachedEditor(i), 1)
	}
	if _, ok := c.size(first); !ok {
		t.Fatal("the editor was evicted before the cache was full")
	}
	c.known(cachedEditor(maxCachedEditors), 1)
	if _, ok := c.size(first); ok {
		t.Error("size kept")
	}
	if _, ok := c.facts(first); ok {
		t.Error("facts kept")
	}
	if c.keepsLog(first) {
		t.Error("log entries kept")
	}
	if c.appendedSeq(first, 1) {
		t.Error("appended sequence kept")
	}
	if c.loggedTotal != 0 {
		t.Errorf("%d bytes of dropped entries still counted", c.loggedTotal)
	}
	if c.startCompaction(busy) {
		t.Error("a second compaction of an editor started while the first runs")
	}
}

func cachedEditor(i int) WorkspaceEditor {
	return WorkspaceEditor{Workspace: "ws", Editor: Editor{EditorID: fmt.Sprintf("e%d", i)}}
}
