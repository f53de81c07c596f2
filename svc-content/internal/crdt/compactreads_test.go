package crdt

import (
	"testing"

	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// A compaction of an editor whose log this replica wrote reads one
// thing: the state it compacted last. It used to probe the version after
// it too, which only spared a compaction that stores nothing.
func TestCompactionReadsOnlyTheStateItSawLast(t *testing.T) {
	svc, counter := newCommandCountingService(t, Settings{CompactEntries: 1000})
	ctx := t.Context()
	e := Editor{"org1", "doc1", "e1"}
	if err := svc.Add(ctx, "ws1", e, content("text", `"x"`), ""); err != nil {
		t.Fatal(err)
	}
	for round := range 3 {
		appendRounds(t, svc, []Editor{e}, 10, uint64(100+100*round))
		sent := counter.Count(func() {
			if err := svc.Compact(ctx, "ws1", e); err != nil {
				t.Fatal(err)
			}
		})
		if sent["find"] != 1 || sent["insert"] != 1 {
			t.Fatalf("compaction %d sent %v, want 1 find (the state) and 1 insert", round+1, sent)
		}
	}
	checkCompacted(t, svc, e, 4, 0, `""xyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy`)
}

// A replica whose view is stale (another one stored a newer version and
// did not cut the one it replaced yet, or crashed before) compacts into a
// slot that is taken: it stores nothing, loses nothing, and its next
// compaction goes on from the newer version.
func TestCompactionFromAStaleViewStoresNothing(t *testing.T) {
	a, _ := newCommandCountingService(t, Settings{CompactEntries: 1000})
	b := replicaOf(t, a)
	ctx := t.Context()
	e := Editor{"org1", "doc1", "e1"}
	if err := a.Add(ctx, "ws1", e, content("text", `"x"`), ""); err != nil {
		t.Fatal(err)
	}
	appendRounds(t, a, []Editor{e}, 3, 100)
	c, err := b.loadCurrent(ctx, "ws1", e)
	if err != nil {
		t.Fatal(err)
	}
	newer := c.latest() // b's compaction, version 1 left uncut
	if newer.Update, err = yjs.MergeUpdates(c.updates()...); err != nil {
		t.Fatal(err)
	}
	newer.Version, newer.LogSeq = 2, 3
	if err := b.store.InsertState(ctx, "ws1", newer); err != nil {
		t.Fatal(err)
	}
	appendRounds(t, a, []Editor{e}, 2, 200)
	if err := a.Compact(ctx, "ws1", e); err != nil {
		t.Fatal(err)
	}
	if got := getData(t, b, e); len(got) != len(`"xyyyyy"`) { // b: a's view stays as it is
		t.Fatalf("after the stale compaction the editor holds %s, want x and 5 edits", got)
	}
	if err := a.Compact(ctx, "ws1", e); err != nil {
		t.Fatal(err)
	}
	checkCompacted(t, a, e, 3, 0, `""xyyyyy`)
}
