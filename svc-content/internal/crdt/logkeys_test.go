package crdt

import (
	"slices"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Log entries the previous writer stored (ObjectID _id, no sequence)
// beside its states (no keyedLog) are read, merged with new appends, and
// deleted by the next compaction, after which the editor reads by _id.
func TestPreviousLogFormatLoads(t *testing.T) {
	svc, _ := newTestService(t)
	ctx := t.Context()
	ms := svc.store.(*mongoStore)
	base := textEdit(t, nil, "content", "a", 1)
	st := stateDoc{
		ID: bson.NewObjectID(), WorkspaceID: "ws1", OrganizationID: ed.OrganizationID, DocumentID: ed.DocumentID,
		EditorID: ed.EditorID, Version: 1, Type: "text", ContentKey: "content", Update: base, LastUpdate: svc.now(),
	}
	if _, err := ms.states.InsertOne(ctx, st); err != nil {
		t.Fatal(err)
	}
	old := logDoc{
		ID: bson.NewObjectID(), WorkspaceID: "ws1", OrganizationID: ed.OrganizationID, DocumentID: ed.DocumentID,
		EditorID: ed.EditorID, Update: textEdit(t, base, "content", "b", 2), At: svc.now(),
	}
	if _, err := ms.log.InsertOne(ctx, old); err != nil {
		t.Fatal(err)
	}
	if got := getData(t, svc, ed); got != `"ab"` {
		t.Fatalf("previous log not read: %s", got)
	}
	state, _ := svc.LoadUpdate(ctx, "ws1", ed)
	if err := svc.AppendUpdate(ctx, "ws1", ed, textEdit(t, state, "content", "c", 3), ""); err != nil {
		t.Fatal(err)
	}
	if got := getData(t, svc, ed); got != `"abc"` {
		t.Fatalf("previous log with a new append: %s", got)
	}
	if err := svc.Compact(ctx, "ws1", ed); err != nil {
		t.Fatal(err)
	}
	left, _ := ms.FindDocumentLog(ctx, "ws1", ed.OrganizationID, ed.DocumentID)
	left = slices.DeleteFunc(left, func(e LogEntry) bool { return e.Seq > 0 }) // keyed: deleted logDeleteLag later
	latest, _ := ms.FindState(ctx, "ws1", ed)
	if len(left) != 0 || !latest.keyedLog || latest.Version != 2 || getData(t, svc, ed) != `"abc"` {
		t.Fatalf("after compaction: %d previous entries left, state %d keyed %v, data %s", len(left), latest.Version, latest.keyedLog, getData(t, svc, ed))
	}
}

// A replica whose view of an editor's log is stale appends at a sequence
// number a compaction of another replica has merged and deleted: that
// entry would never be read, so it is appended again above the merged
// state and nothing is lost.
func TestStaleReplicaAppendIsNotLost(t *testing.T) {
	a, b, clock := twoReplicas(t)
	other := b.store.(*mongoStore)
	ctx := t.Context()
	if err := a.Add(ctx, "ws1", ed, content("text", `"x"`), ""); err != nil {
		t.Fatal(err)
	}
	state, _ := a.LoadUpdate(ctx, "ws1", ed)
	appendText := func(svc *Service, s string, client uint64) {
		t.Helper()
		if err := svc.AppendUpdate(ctx, "ws1", ed, textEdit(t, state, "content", s, client), ""); err != nil {
			t.Fatal(err)
		}
	}
	appendText(b, "1", 11) // b: seq 1, next 2
	appendText(a, "2", 12) // a probes: seq 2
	if err := a.Compact(ctx, "ws1", ed); err != nil {
		t.Fatal(err) // merges 1..2 into version 2
	}
	*clock = clock.Add(logDeleteLag) // b's hint is no longer trusted
	appendText(a, "4", 14)           // seq 3
	if err := a.Compact(ctx, "ws1", ed); err != nil {
		t.Fatal(err) // merges 3 and deletes 1..2, which version 2 merged
	}
	appendText(b, "3", 13) // b still thinks 2 is next: that slot is free again
	if h, _ := other.hints.get(editorKey("ws1", ed)); h.next != 5 {
		t.Fatalf("b's append went to sequence %d, want 4 (above the merged 3)", h.next-1)
	}
	got := getData(t, a, ed)
	for _, c := range []string{"1", "2", "3", "4"} {
		if !strings.Contains(got, c) {
			t.Fatalf("update %s lost: %s", c, got)
		}
	}
}

// twoReplicas are two services on one database (b compacts only when
// told) whose time is *clock.
func twoReplicas(t *testing.T) (a, b *Service, clock *time.Time) {
	t.Helper()
	a, _ = newTestService(t)
	clock = new(time.Time)
	*clock = a.now()
	now := func() time.Time { return *clock }
	a.now, a.store.(*mongoStore).now = now, now
	other := newMongoStore(a.store.(*mongoStore).states.Database())
	other.now = now
	b = newService(other, nil, now, Settings{CompactEntries: 1000})
	t.Cleanup(b.Wait)
	return a, b, clock
}

// Replaced versions are cut to markers and deleted markerRetention after
// their replacement (every pruneSweepEvery versions), never version 1 nor
// a marker replaced recently, and the editor still reads by _id.
func TestMarkersExpireAfterReplacement(t *testing.T) {
	svc, _ := newTestService(t)
	ctx := t.Context()
	ms := svc.store.(*mongoStore)
	if err := svc.Add(ctx, "ws1", ed, content("text", `""`), ""); err != nil {
		t.Fatal(err)
	}
	for v := int64(2); v <= pruneSweepEvery; v++ {
		if v == pruneSweepEvery {
			later := time.Now().Add(markerRetention + time.Minute)
			ms.now = func() time.Time { return later }
		}
		state, _ := svc.LoadUpdate(ctx, "ws1", ed)
		if err := svc.AppendUpdate(ctx, "ws1", ed, textEdit(t, state, "content", "x", uint64(v)), ""); err != nil {
			t.Fatal(err)
		}
		if err := svc.Compact(ctx, "ws1", ed); err != nil {
			t.Fatal(err)
		}
	}
	key := editorKey("ws1", ed)
	for v, want := range map[int64]bool{1: true, 2: false, pruneSweepEvery - 2: false, pruneSweepEvery - 1: true, pruneSweepEvery: true} {
		if has, err := ms.hasState(ctx, key, v); err != nil || has != want {
			t.Errorf("version %d stored: %v, want %v (%v)", v, has, want, err)
		}
	}
	if got := getData(t, svc, ed); got != `"`+strings.Repeat("x", pruneSweepEvery-1)+`"` {
		t.Fatalf("data %s", got)
	}
}
