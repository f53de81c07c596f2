package store

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-activity/internal/activity"
)

func record(id string, ts int64) activity.Record {
	return activity.Record{
		OrganizationID: "o1", DocumentID: "d1", ID: id, FeatureType: "comment", ActionType: "comment.add",
		ActionUser: json.RawMessage(`{"userId":"u1"}`), ActionUserID: "u1", Timestamp: ts,
	}
}

// A record stored between the id look-up and the insert (a concurrent
// add) fails the insert alone and comes back to be replaced; the others
// of the batch are inserted.
func TestInsertFreshReturnsRacedRecords(t *testing.T) {
	ctx := context.Background()
	m := NewMongo(testenv.Mongo(t))
	if err := m.EnsureIndexes(ctx); err != nil {
		t.Fatal(err)
	}
	if err := m.ReplaceAll(ctx, "ws1", []activity.Record{record("b", 1)}); err != nil {
		t.Fatal(err)
	}
	raced, err := m.insertFresh(ctx, "ws1", []activity.Record{record("a", 2), record("b", 2), record("c", 2)})
	if err != nil {
		t.Fatal(err)
	}
	if len(raced) != 1 || raced[0].ID != "b" {
		t.Fatalf("raced = %+v, want only b", raced)
	}
	got, err := m.FindByIDs(ctx, "ws1", "o1", []string{"a", "b", "c"})
	if err != nil || len(got) != 3 {
		t.Fatalf("stored %d records (%v), want a, b and c", len(got), err)
	}

	// ReplaceAll of a mix: b is replaced, d inserted.
	if err := m.ReplaceAll(ctx, "ws1", []activity.Record{record("b", 3), record("d", 3)}); err != nil {
		t.Fatal(err)
	}
	got, _ = m.FindByIDs(ctx, "ws1", "o1", []string{"b", "d"})
	for _, r := range got {
		if r.Timestamp != 3 {
			t.Fatalf("record %s has timestamp %d after ReplaceAll, want 3", r.ID, r.Timestamp)
		}
	}
	if len(got) != 2 {
		t.Fatalf("found %d of b and d", len(got))
	}
}

// Ids are looked up the same way by the point reads FerretDB gets and by
// the $in query MongoDB gets.
func TestLookUpBothPaths(t *testing.T) {
	for _, point := range []bool{true, false} {
		ctx := context.Background()
		m := NewMongo(testenv.Mongo(t))
		if err := m.EnsureIndexes(ctx); err != nil {
			t.Fatal(err)
		}
		m.pointReads = point
		locked := record("locked", 1)
		locked.Immutable = true
		if err := m.ReplaceAll(ctx, "ws1", []activity.Record{locked, record("free", 1)}); err != nil {
			t.Fatal(err)
		}
		if err := m.ReplaceAll(ctx, "ws2", []activity.Record{record("other", 1)}); err != nil {
			t.Fatal(err)
		}
		got, err := m.ImmutableAmong(ctx, "ws1", []string{"free", "locked", "missing", "other"})
		if err != nil || len(got) != 1 || got[0] != "locked" {
			t.Fatalf("point=%v: ImmutableAmong = %v, %v; want [locked]", point, got, err)
		}
		stored, err := m.storedIDs(ctx, "ws1", []activity.Record{record("free", 2), record("other", 2), record("new", 2)})
		if err != nil || len(stored) != 1 || !stored["free"] {
			t.Fatalf("point=%v: storedIDs = %v, %v; want free only", point, stored, err)
		}
	}
}
