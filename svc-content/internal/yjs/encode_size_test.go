package yjs

import (
	"strings"
	"testing"

	"github.com/opencollab/backend/pkg/testalloc"
)

// typedText is a document whose "content" text got 13 000 runs of eight
// characters from ten editors in turn (about 100 KB).
func typedText(tb testing.TB) *Doc {
	tb.Helper()
	d := NewDoc(1)
	editors := make([]*Doc, 10)
	for i := range editors {
		editors[i] = NewDoc(uint64(100 + i))
	}
	for i := range 13_000 {
		if err := d.ApplyUpdate(typeAtEnd(tb, editors[i%len(editors)], "abcdefgh")); err != nil {
			tb.Fatal(err)
		}
	}
	return d
}

// The state of a typed text is encoded into a buffer sized once (about
// the text's length), not grown by a quarter at a time; and the state of
// a text typed then deleted, whose clocks are long and whose encoding is
// short, gets no buffer the size of what was deleted.
func TestEncodedStateIsSizedOnce(t *testing.T) {
	d := typedText(t)
	allocs := testalloc.PerRun(5, func() {
		if _, err := d.EncodeStateAsUpdate(nil); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 6 {
		t.Errorf("encoding a 100 KB state: %.0f allocations, want at most 6", allocs)
	}
	state, _ := d.EncodeStateAsUpdate(nil)
	if c, l := cap(state), len(state); c > l+l/8 {
		t.Errorf("state of %d bytes in a buffer of %d", l, c)
	}

	erased := NewDoc(2)
	typeAtEnd(t, erased, strings.Repeat("x", 100_000))
	if _, err := erased.Transact(func(tx *Tx) error {
		return erased.Text("content").Delete(tx, 0, 100_000)
	}); err != nil {
		t.Fatal(err)
	}
	state, _ = erased.EncodeStateAsUpdate(nil)
	if cap(state) > 1024 {
		t.Errorf("state of a deleted 100 KB text: %d bytes in a buffer of %d, want under 1 KiB", len(state), cap(state))
	}
}

// typeAtEnd types s at the end of d's "content" text and returns the
// transaction's update.
func typeAtEnd(tb testing.TB, d *Doc, s string) []byte {
	tb.Helper()
	u, err := d.Transact(func(tx *Tx) error {
		text := d.Text("content")
		return text.Insert(tx, text.Len(), s, nil)
	})
	if err != nil {
		tb.Fatal(err)
	}
	return u
}

func BenchmarkEncodeTypedState(b *testing.B) {
	d := typedText(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := d.EncodeStateAsUpdate(nil); err != nil {
			b.Fatal(err)
		}
	}
}

// A character typed at the end of a long run is emitted in the
// transaction's small buffer: the run's text before it is not counted.
func TestTypedCharacterUpdateKeepsItsSmallBuffer(t *testing.T) {
	t.Parallel()
	d := NewDoc(3)
	typeAtEnd(t, d, strings.Repeat("x", 100_000))
	u := typeAtEnd(t, d, "y")
	if cap(u) > txUpdateBuf {
		t.Fatalf("update of one typed character (%d bytes) in a buffer of %d, want at most %d", len(u), cap(u), txUpdateBuf)
	}
}
