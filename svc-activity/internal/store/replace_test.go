package store

import (
	"context"
	"encoding/json"
	"errors"
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

// changed is r with other content than record gives it.
func changed(r activity.Record) activity.Record {
	r.TargetEntityID = "changed"
	return r
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
	if err := m.ReplaceAll(ctx, "ws1", []activity.Record{changed(record("b", 3)), record("d", 3)}); err != nil {
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
		var locked1 *activity.ImmutableError
		err := m.ReplaceAll(ctx, "ws1", []activity.Record{record("free", 2), record("locked", 2), record("missing", 2)})
		if !errors.As(err, &locked1) || locked1.ID != "locked" {
			t.Fatalf("point=%v: batch over an immutable record: %v; want ImmutableError for locked", point, err)
		}
		if err := m.ReplaceAll(ctx, "ws1", []activity.Record{changed(record("free", 3)), record("other", 3), record("new", 3)}); err != nil {
			t.Fatalf("point=%v: %v", point, err)
		}
		got, _ := m.FindByIDs(ctx, "ws1", "o1", []string{"free", "other", "new", "missing"})
		if len(got) != 3 {
			t.Fatalf("point=%v: ws1 holds %+v, want free, other and new (missing never written)", point, got)
		}
		for _, r := range got {
			if r.Timestamp != 3 {
				t.Fatalf("point=%v: %s has timestamp %d, want 3", point, r.ID, r.Timestamp)
			}
		}
		if theirs, _ := m.FindByIDs(ctx, "ws2", "o1", []string{"other"}); len(theirs) != 1 || theirs[0].Timestamp != 1 {
			t.Fatalf("point=%v: ws2's record changed: %+v", point, theirs)
		}
	}
}
