package yjs

import (
	"testing"

	"github.com/opencollab/backend/pkg/testalloc"
)

// maxBatchMergeAllocs bounds the allocations of merging what a realtime
// room stores in one batch at saturation: one typed character from each
// of its ten editors (the committer merges a room's pending updates into
// one log entry). Measured: 61; 117 when every update had a decoder and
// a reader of its own, its structs copied into the reader, and every
// client's part of the result an encoder grown from empty.
const maxBatchMergeAllocs = 61

func TestMergeTypedCharactersAllocations(t *testing.T) {
	updates := typedByEditors(t, 10)
	allocs := testalloc.PerRun(100, func() {
		if _, err := MergeUpdates(updates...); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("%.1f allocations to merge %d typed characters", allocs, len(updates))
	if allocs > maxBatchMergeAllocs {
		t.Fatalf("%.1f allocations to merge %d typed characters, want at most %d", allocs, len(updates), maxBatchMergeAllocs)
	}
}

// typedByEditors is a character typed by each of n editors of a shared
// text, every editor having seen the others' (one update each).
func typedByEditors(t testing.TB, n int) [][]byte {
	shared := NewDoc(1)
	updates := make([][]byte, n)
	for i := range updates {
		d := NewDoc(uint64(100 + i))
		state, err := shared.EncodeStateAsUpdate(nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.ApplyUpdate(state); err != nil {
			t.Fatal(err)
		}
		u := typeAtEnd(t, d, "x")
		if err := shared.ApplyUpdate(u); err != nil {
			t.Fatal(err)
		}
		updates[i] = u
	}
	return updates
}

// BenchmarkMergeTypedCharacters is the merge of TestMergeTypedCharactersAllocations.
func BenchmarkMergeTypedCharacters(b *testing.B) {
	updates := typedByEditors(b, 10)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := MergeUpdates(updates...); err != nil {
			b.Fatal(err)
		}
	}
}
