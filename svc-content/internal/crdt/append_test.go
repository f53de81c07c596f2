package crdt

import (
	"testing"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// An update given to AppendUpdates or a REST update (input nobody
// applied) is decoded and refused when malformed, with nothing written;
// the realtime rooms' updates, which their rooms applied (decoding them
// whole), go through AppendAppliedUpdates without a second decode.
func TestOnlyUnappliedUpdatesAreDecodedAtAppend(t *testing.T) {
	svc, _ := newTestService(t)
	ctx := t.Context()
	decoded := 0
	svc.validateUpdate = func(u []byte) error {
		decoded++
		return yjs.ValidateUpdate(u)
	}
	if err := svc.Add(ctx, "ws1", ed, content("text", `"x"`), ""); err != nil {
		t.Fatal(err)
	}
	malformed := []byte{1, 200, 3}
	err := svc.AppendUpdates(ctx, []Append{{Workspace: "ws1", Editor: ed, Update: malformed}})[0]
	if !api.IsStatus(err, api.InvalidArgument) || decoded != 1 {
		t.Fatalf("malformed update appended: %v after %d decodes, want INVALID_ARGUMENT after 1", err, decoded)
	}
	if err := svc.Update(ctx, "ws1", ed, Content{Update: malformed}, ""); !api.IsStatus(err, api.InvalidArgument) {
		t.Fatalf("malformed REST update: %v, want INVALID_ARGUMENT", err)
	}
	if _, log, _ := svc.store.FindCurrent(ctx, "ws1", ed); len(log) != 0 || getData(t, svc, ed) != `"x"` {
		t.Fatalf("refused updates stored %d entries; data %s", len(log), getData(t, svc, ed))
	}

	state, _ := svc.LoadUpdate(ctx, "ws1", ed)
	edit := textEdit(t, state, "content", "y", 40)
	room := yjs.NewDoc(1) // what the realtime room does before it stores an update
	if err := room.ApplyUpdate(state); err != nil {
		t.Fatal(err)
	}
	if err := room.ApplyUpdate(edit); err != nil {
		t.Fatal(err)
	}
	decoded = 0
	if err := svc.AppendAppliedUpdates(ctx, []Append{{Workspace: "ws1", Editor: ed, Update: edit}})[0]; err != nil {
		t.Fatal(err)
	}
	if decoded != 0 {
		t.Fatalf("the realtime path decoded the update its room applied %d more times, want 0", decoded)
	}
	if got := getData(t, svc, ed); got != `"xy"` {
		t.Fatalf("data %s after the applied update, want \"xy\"", got)
	}
}
