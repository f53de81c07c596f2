package crdt

import (
	"fmt"
	"testing"

	"github.com/opencollab/backend/pkg/testenv"
)

// BenchmarkLoadUpdateManyEditors reads one editor's document (state plus
// log) from a store holding the logs of many editors: its cost must
// follow the editor's own log, not the whole collection.
func BenchmarkLoadUpdateManyEditors(b *testing.B) {
	const editors, entries = 100, 32
	svc := NewService(testenv.Mongo(b), nil, Settings{CompactEntries: 1 << 20, CompactBytes: 1 << 40})
	ctx := b.Context()
	if err := svc.EnsureIndexes(ctx); err != nil {
		b.Fatal(err)
	}
	var batch []Append
	for i := range editors {
		e := Editor{OrganizationID: "org1", DocumentID: "doc1", EditorID: fmt.Sprintf("ed%03d", i)}
		if err := svc.Add(ctx, "ws1", e, content("text", `"x"`), ""); err != nil {
			b.Fatal(err)
		}
		state, _ := svc.LoadUpdate(ctx, "ws1", e)
		for j := range entries {
			batch = append(batch, Append{Workspace: "ws1", Editor: e, Update: textEdit(b, state, "content", fmt.Sprint(j), uint64(100+j))})
		}
	}
	for start := 0; start < len(batch); start += editors {
		for _, err := range svc.AppendUpdates(ctx, batch[start:start+editors]) {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	target := Editor{OrganizationID: "org1", DocumentID: "doc1", EditorID: "ed050"}
	b.ResetTimer()
	for b.Loop() {
		u, err := svc.LoadUpdate(ctx, "ws1", target)
		if err != nil || len(u) == 0 {
			b.Fatal(err)
		}
	}
}
