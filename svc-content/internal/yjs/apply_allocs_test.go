package yjs

import "testing"

// maxTypedCharAllocs bounds the allocations of applying one typed
// character from another client and emitting the update it made (what a
// realtime room does for every update it relays). Measured: 7; 10 with
// a one-struct update's section, struct pointer and struct allocated
// apart and an encoder allocated per emitted update; 11 with a decoder
// per update; 14 when the emitted update's buffer grew from
// empty and its clients were sorted on the heap even when there was one,
// and an empty delete set was a map of its own.
const maxTypedCharAllocs = 7

func TestApplyTypedCharacterAllocations(t *testing.T) {
	const runs = 100
	src := NewDoc(7)
	updates := make([][]byte, runs+1) // AllocsPerRun warms up with one more
	for i := range updates {
		u, err := src.Transact(func(tx *Tx) error {
			text := src.Text("content")
			return text.Insert(tx, text.Len(), "x", nil)
		})
		if err != nil {
			t.Fatal(err)
		}
		updates[i] = u
	}
	dst := NewDoc(1)
	emitted := 0
	dst.OnUpdate(func([]byte) { emitted++ })
	next := 0
	allocs := testing.AllocsPerRun(runs, func() {
		if err := dst.ApplyUpdate(updates[next]); err != nil {
			t.Fatal(err)
		}
		next++
	})
	if emitted != runs+1 {
		t.Fatalf("%d updates emitted, want %d", emitted, runs+1)
	}
	t.Logf("%.1f allocations per typed character applied", allocs)
	if allocs > maxTypedCharAllocs {
		t.Fatalf("%.1f allocations per typed character applied, want at most %d", allocs, maxTypedCharAllocs)
	}
}
