package store

import (
	"context"
	"fmt"
	"testing"

	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-activity/internal/activity"
)

// The same 300 records again (a retry, with the new add's timestamp)
// write nothing: only the look-up runs, and the records keep the
// timestamp of their first add. A changed record is still replaced.
func TestReplaceAllSkipsUnchangedRecords(t *testing.T) {
	ctx := context.Background()
	db, counter := testenv.CountingMongo(t)
	m := NewMongo(db)
	if err := m.EnsureIndexes(ctx); err != nil {
		t.Fatal(err)
	}
	batch := func(ts int64) []activity.Record {
		recs := make([]activity.Record, 300)
		for i := range recs {
			recs[i] = record(fmt.Sprintf("a%03d", i), ts)
		}
		return recs
	}
	if err := m.ReplaceAll(ctx, "ws1", batch(1)); err != nil {
		t.Fatal(err)
	}
	again := batch(2)
	sent := counter.Count(func() {
		if err := m.ReplaceAll(ctx, "ws1", again); err != nil {
			t.Fatal(err)
		}
	})
	if sent["insert"]+sent["update"]+sent["delete"]+sent["findAndModify"] != 0 {
		t.Fatalf("the same records again sent %v, want look-ups only", sent)
	}
	if again[0].Timestamp != 1 || again[299].Timestamp != 1 {
		t.Fatalf("kept records report timestamps %d and %d, want the stored 1", again[0].Timestamp, again[299].Timestamp)
	}

	mixed := batch(3)
	mixed[7] = changed(mixed[7])
	sent = counter.Count(func() {
		if err := m.ReplaceAll(ctx, "ws1", mixed); err != nil {
			t.Fatal(err)
		}
	})
	if sent["update"] != 1 || sent["insert"] != 0 {
		t.Fatalf("one changed record of 300 sent %v, want one update", sent)
	}
	got, err := m.FindByIDs(ctx, "ws1", "o1", []string{"a007", "a008"})
	if err != nil || len(got) != 2 {
		t.Fatalf("read back %v (%v)", got, err)
	}
	for _, r := range got {
		want := map[string]int64{"a007": 3, "a008": 1}[r.ID]
		if r.Timestamp != want {
			t.Fatalf("%s has timestamp %d, want %d", r.ID, r.Timestamp, want)
		}
	}
}
