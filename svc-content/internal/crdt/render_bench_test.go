package crdt

import (
	"testing"

	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// BenchmarkRenderTypedText is the render an edit event makes of a text
// ten editors typed in turns of eight characters (about 100 KB in 13 000
// runs, the size the realtime benchmark's documents grow to).
func BenchmarkRenderTypedText(b *testing.B) {
	d := yjs.NewDoc(1)
	editors := make([]*yjs.Doc, 10)
	for i := range editors {
		editors[i] = yjs.NewDoc(uint64(100 + i))
	}
	for i := range 13_000 {
		ed := editors[i%len(editors)]
		u, err := ed.Transact(func(tx *yjs.Tx) error {
			text := ed.Text("content")
			return text.Insert(tx, text.Len(), "abcdefgh", nil)
		})
		if err != nil {
			b.Fatal(err)
		}
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
