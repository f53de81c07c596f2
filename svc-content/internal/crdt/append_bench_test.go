package crdt

import (
	"fmt"
	"testing"

	"github.com/opencollab/backend/pkg/testenv"
)

// BenchmarkAppendBatch is the realtime write path through the store (the
// embedded FerretDB of the tests runs in this process, so its work and
// allocations count): every op is one group commit of one update to each
// of 10 editors (AppendAppliedUpdates, as the realtime rooms store what
// they applied), compactions at their default length in the background.
// Reports allocations and CPU per update.
func BenchmarkAppendBatch(b *testing.B) {
	const editors = 10
	svc := NewService(testenv.Mongo(b), nil, Settings{})
	b.Cleanup(svc.Wait)
	ctx := b.Context()
	if err := svc.EnsureIndexes(ctx); err != nil {
		b.Fatal(err)
	}
	var eds []Editor
	for i := range editors {
		e := Editor{OrganizationID: "org1", DocumentID: fmt.Sprintf("doc%d", i), EditorID: "ed"}
		if err := svc.Add(ctx, "ws1", e, content("text", `"x"`), ""); err != nil {
			b.Fatal(err)
		}
		eds = append(eds, e)
	}
	updates := make([][]byte, 4096)
	for i := range updates {
		updates[i] = textEdit(b, nil, "content", "y", uint64(1000+i))
	}
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for b.Loop() {
		batch := make([]Append, editors)
		for i, e := range eds {
			batch[i] = Append{Workspace: "ws1", Editor: e, Update: updates[n%len(updates)], UserID: "u"}
			n++
		}
		for i, err := range svc.AppendAppliedUpdates(ctx, batch) {
			if err != nil {
				b.Fatalf("item %d: %v", i, err)
			}
		}
	}
	svc.Wait()
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/update")
}
