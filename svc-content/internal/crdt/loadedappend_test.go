package crdt

import (
	"testing"
)

// A realtime room loads its editor before its clients write: what the
// load found (data of some size, or none) spares the first append the
// store query that asked it again (on the embedded store a scan of every
// editor's states, per document and replica).
func TestFirstAppendAfterALoadAsksNoSizes(t *testing.T) {
	svc, counter := newCommandCountingService(t, Settings{CompactEntries: 1000})
	ctx := t.Context()
	existing, fresh := Editor{"org1", "doc1", "old"}, Editor{"org1", "doc2", "new"}
	if err := svc.Add(ctx, "ws1", existing, content("text", `"x"`), ""); err != nil {
		t.Fatal(err)
	}
	svc.editors.forget() // as a replica that did not write it
	for _, e := range []Editor{existing, fresh} {
		if _, _, err := svc.LoadMarked(ctx, "ws1", e); err != nil {
			t.Fatal(err)
		}
	}
	sent := counter.Count(func() { appendRounds(t, svc, []Editor{existing, fresh}, 1, 100) })
	if sent["find"] != 0 {
		t.Fatalf("the first appends after loading an editor with data and one without sent %v, want no find", sent)
	}
	if got := getData(t, svc, existing); len(got) != len(`"xy"`) {
		t.Fatalf("loaded editor holds %s, want x and y", got)
	}
	if got := getData(t, svc, fresh); got != `"y"` {
		t.Fatalf("editor created by its first append holds %s, want y", got)
	}
	if size, ok := svc.editors.size(WorkspaceEditor{"ws1", existing}); !ok || size < int64(len("xy")) {
		t.Fatalf("size known after the append %d (%v), want the loaded size plus the update", size, ok)
	}
}

// An editor that a load found without data and another replica created
// since: the first append here fails to create it, learns its size from
// the store and logs the update; nothing is lost.
func TestEditorCreatedElsewhereAfterALoadFoundNone(t *testing.T) {
	a, _ := newCommandCountingService(t, Settings{CompactEntries: 1000})
	b := replicaOf(t, a)
	ctx := t.Context()
	e := Editor{"org1", "doc1", "e1"}
	if _, _, err := a.LoadMarked(ctx, "ws1", e); err != nil {
		t.Fatal(err)
	}
	created := textEdit(t, nil, "content", "b", 101)
	if err := b.AppendUpdate(ctx, "ws1", e, created, ""); err != nil {
		t.Fatal(err)
	}
	if err := a.AppendUpdate(ctx, "ws1", e, textEdit(t, nil, "content", "a", 102), ""); err != nil {
		t.Fatal(err)
	}
	if got := getData(t, a, e); len(got) != len(`"ab"`) {
		t.Fatalf("editor holds %s, want a and b", got)
	}
	if size, _ := a.editors.size(WorkspaceEditor{"ws1", e}); size <= int64(len(created)) {
		t.Fatalf("size known %d, want the stored state's %d plus the appended update", size, len(created))
	}
}
