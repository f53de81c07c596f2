package crdt

import (
	"encoding/binary"
	"testing"

	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// BenchmarkRenderTypedText is the render an edit event makes of a text
// ten editors typed in turns of eight characters (about 100 KB in 13 000
// runs, the size the realtime benchmark's documents grow to).
func BenchmarkRenderTypedText(b *testing.B) {
	d := yjs.NewDoc(1)
	clocks := make([]uint64, 10)
	for i := range 13_000 {
		editor := i % len(clocks)
		u := appendTypedRun(nil, uint64(100+editor), clocks[editor], []byte("abcdefgh"))
		clocks[editor] += 8
		if err := d.ApplyUpdate(u); err != nil {
			b.Fatal(err)
		}
	}
	st := State{Type: "text", ContentKey: "content"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := readContent(d, st, FormatDefault); err != nil {
			b.Fatal(err)
		}
	}
}

// appendTypedRun appends the v1 update of client typing s into the text
// "content" at clock, right after its own previous run (the text's start
// for clock 0): one Item with ContentString and an empty delete set.
func appendTypedRun(b []byte, client, clock uint64, s []byte) []byte {
	b = binary.AppendUvarint(b, 1) // one client
	b = binary.AppendUvarint(b, 1) // one struct
	b = binary.AppendUvarint(b, client)
	b = binary.AppendUvarint(b, clock)
	if clock == 0 {
		b = append(b, 4) // ContentString, no origin: the parent follows
		b = binary.AppendUvarint(b, 1)
		b = binary.AppendUvarint(b, uint64(len("content")))
		b = append(b, "content"...)
	} else {
		b = append(b, 4|0x80) // origin: this client's previous character
		b = binary.AppendUvarint(b, client)
		b = binary.AppendUvarint(b, clock-1)
	}
	b = binary.AppendUvarint(b, uint64(len(s)))
	b = append(b, s...)
	return binary.AppendUvarint(b, 0)
}
