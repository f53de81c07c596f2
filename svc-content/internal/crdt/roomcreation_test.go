package crdt

import (
	"testing"

	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// editApplied appends s as a realtime room stores what its clients sent
// (AppendAppliedUpdates) and applies it to the reader's document.
func (r *reader) editApplied(s string, client uint64) {
	r.t.Helper()
	u := textEdit(r.t, nil, "content", s, client)
	if err := r.svc.AppendAppliedUpdates(r.t.Context(), []Append{{Workspace: "ws1", Editor: ed, Update: u}})[0]; err != nil {
		r.t.Fatal(err)
	}
	r.apply(u)
}

// A room that loaded its editor without data (a zero Mark) and whose
// first update created it holds version 1: its catch-up reads what it
// lacks after that, not the whole editor (which cost a find per entry).
func TestCatchUpOfTheRoomThatCreatedTheEditor(t *testing.T) {
	a, counter := newCommandCountingService(t, Settings{CompactEntries: 1000})
	b := replicaOf(t, a)
	room := newReader(t, a)
	const long = 40
	for i := range long {
		room.editApplied("a", uint64(100+i))
	}
	if err := b.AppendUpdate(t.Context(), "ws1", ed, textEdit(t, nil, "content", "b", 7), ""); err != nil {
		t.Fatal(err)
	}
	sent := counter.Count(func() { room.catchUp() })
	if sent["find"] > 3 || len(sent) != 1 {
		t.Fatalf("first catch-up of the creating room after %d entries sent %v, want at most 3 finds (the other replica's entry, the log's end, the next version)", long, sent)
	}
	if got := room.text(); got != getData(t, a, ed) {
		t.Fatalf("room holds %s, the store %s", got, getData(t, a, ed))
	}
}

// A room that loaded the editor without data holds nothing another door
// created: its catch-up reads the whole editor.
func TestCatchUpOfARoomWhenRESTCreatedTheEditor(t *testing.T) {
	svc, _ := newCommandCountingService(t, Settings{CompactEntries: 1000})
	room := newReader(t, svc)
	if err := svc.AppendUpdate(t.Context(), "ws1", ed, textEdit(t, nil, "content", "r", 5), ""); err != nil {
		t.Fatal(err)
	}
	if room.catchUp(); room.text() != `"r"` {
		t.Fatalf("room holds %s after its catch-up, want the REST creation r", room.text())
	}
}

// Once a load read the editor, a zero Mark no longer counts as the
// creating room's: it reads the whole editor.
func TestCatchUpAfterALoadReadsAZeroMarkWhole(t *testing.T) {
	svc, _ := newCommandCountingService(t, Settings{CompactEntries: 1000})
	creator := newReader(t, svc)
	creator.editApplied("x", 6)
	newReader(t, svc) // another room loads it
	blank := &reader{t: t, svc: svc, doc: yjs.NewDoc(1)}
	if blank.catchUp(); blank.text() != `"x"` {
		t.Fatalf("a room with a zero Mark holds %s after its catch-up, want x", blank.text())
	}
}
