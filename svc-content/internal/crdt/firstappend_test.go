package crdt

import (
	"fmt"
	"testing"
	"time"
)

// The appends that follow the creation of editors by this replica (the
// realtime door creates a document from its first update) read nothing
// back: the new editor's log starts at slot 1, which no compaction can
// have freed. They used to probe the state, its next version and the
// log's first slot and check the version after the insert (4 finds each).
func TestFirstAppendsToNewEditorsReadNothing(t *testing.T) {
	svc, counter := newCommandCountingService(t, Settings{CompactEntries: 1000})
	var eds []Editor
	for i := range 10 {
		eds = append(eds, Editor{"org1", "doc1", fmt.Sprintf("e%d", i)})
	}
	appendRounds(t, svc, eds, 1, 100) // creates them
	sent := counter.Count(func() { appendRounds(t, svc, eds, 2, 200) })
	if sent["find"] != 0 || sent["insert"] != 2 {
		t.Fatalf("2 batches of appends to 10 new editors sent %v, want 2 inserts and no find", sent)
	}
	for _, e := range eds {
		if got := getData(t, svc, e); len(got) != len(`"yyy"`) {
			t.Fatalf("editor %s holds %s, want its 3 edits", e.EditorID, got)
		}
	}
}

// A replica that created the editor and appends at slot 1 without a probe
// loses nothing when another replica took that slot first: the insert
// fails on the slot's _id and the entry goes after it.
func TestFirstAppendAfterAnotherReplicasTakesTheNextSlot(t *testing.T) {
	a, _ := newCommandCountingService(t, Settings{CompactEntries: 1000})
	b := replicaOf(t, a)
	ctx := t.Context()
	e := Editor{"org1", "doc1", "e1"}
	if err := a.AppendUpdate(ctx, "ws1", e, textEdit(t, nil, "content", "x", 100), ""); err != nil {
		t.Fatal(err)
	}
	if err := b.AppendUpdate(ctx, "ws1", e, textEdit(t, nil, "content", "b", 101), ""); err != nil {
		t.Fatal(err)
	}
	if err := a.AppendUpdate(ctx, "ws1", e, textEdit(t, nil, "content", "a", 102), ""); err != nil {
		t.Fatal(err)
	}
	_, log, err := a.store.FindCurrent(ctx, "ws1", e)
	if err != nil {
		t.Fatal(err)
	}
	if len(log) != 2 || log[0].Seq != 1 || log[1].Seq != 2 {
		t.Fatalf("log %v, want the other replica's entry at 1 and ours at 2", log)
	}
	if got := getData(t, a, e); len(got) != len(`"xab"`) {
		t.Fatalf("editor holds %s, want x, a and b", got)
	}
}

// replicaOf is another replica on svc's database: its own caches and
// hints.
func replicaOf(t *testing.T, svc *Service) *Service {
	t.Helper()
	other := newService(newMongoStore(svc.store.(*mongoStore).states.Database()), nil, time.Now, Settings{CompactEntries: 1000})
	t.Cleanup(other.Wait)
	return other
}
