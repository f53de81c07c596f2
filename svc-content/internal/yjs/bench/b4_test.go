package main

import (
	"testing"

	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// go test -bench . ./internal/yjs/bench: the Go half of the B4 benchmark,
// for profiling (the comparison with yjs is the bench command).

func loadTestTrace(b *testing.B) *trace {
	b.Helper()
	tr, err := loadTrace("testdata/automerge-paper.json.gz")
	if err != nil {
		b.Fatal(err)
	}
	return tr
}

func BenchmarkB4Edit(b *testing.B) {
	tr := loadTestTrace(b)
	b.ReportAllocs()
	for b.Loop() {
		doc := yjs.NewDoc(1)
		text := doc.Text("text")
		for _, e := range tr.edits {
			if e.del > 0 {
				if _, err := doc.Transact(func(tx *yjs.Tx) error { return text.Delete(tx, e.pos, e.del) }); err != nil {
					b.Fatal(err)
				}
			}
			if e.ins != "" {
				if _, err := doc.Transact(func(tx *yjs.Tx) error { return text.Insert(tx, e.pos, e.ins, nil) }); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}

func BenchmarkB4Remote(b *testing.B) {
	tr := loadTestTrace(b)
	doc := yjs.NewDoc(1)
	text := doc.Text("text")
	var updates [][]byte
	for _, e := range tr.edits {
		if e.del > 0 {
			u, _ := doc.Transact(func(tx *yjs.Tx) error { return text.Delete(tx, e.pos, e.del) })
			updates = append(updates, u)
		}
		if e.ins != "" {
			u, _ := doc.Transact(func(tx *yjs.Tx) error { return text.Insert(tx, e.pos, e.ins, nil) })
			updates = append(updates, u)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		peer := yjs.NewDoc(2)
		for _, u := range updates {
			if err := peer.ApplyUpdate(u); err != nil {
				b.Fatal(err)
			}
		}
	}
}
