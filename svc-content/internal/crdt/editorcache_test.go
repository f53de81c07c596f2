package crdt

import (
	"fmt"
	"testing"
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
		k := WorkspaceEditor{Workspace: "ws", Editor: Editor{EditorID: fmt.Sprintf("e%d", i)}}
		c.appendedEntry(k, LogEntry{Seq: 1, Update: update})
	}
	var kept int64
	for _, l := range c.logged {
		kept += l.bytes
	}
	if kept > 64<<20 { // the documented budget
		t.Fatalf("%d MiB kept for %d editors, budget 64 MiB", kept>>20, len(c.logged))
	}
	if kept != c.loggedTotal {
		t.Fatalf("counted %d bytes, kept %d", c.loggedTotal, kept)
	}
	for k := range c.logged {
		c.mergedThrough(k, 1)
	}
	if c.loggedTotal != 0 {
		t.Fatalf("after every merge %d bytes still counted", c.loggedTotal)
	}
}
