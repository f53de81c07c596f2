package eventstest_test

import (
	"slices"
	"sync"
	"testing"

	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/pkg/events/eventstest"
)

func event(t *testing.T, typ string) events.Event {
	t.Helper()
	e, err := events.New(typ, "test", "ws_1", "org_1", "doc_1", map[string]string{"k": typ})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestRecorderKeepsEventsInOrder(t *testing.T) {
	var rec eventstest.Recorder
	a, b, c := event(t, "a.made"), event(t, "b.made"), event(t, "c.made")
	if err := rec.Publish(t.Context(), a, b); err != nil {
		t.Fatal(err)
	}
	if err := rec.Publish(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	if got, want := rec.Types(), []string{"a.made", "b.made", "c.made"}; !slices.Equal(got, want) {
		t.Fatalf("Types() = %v, want %v", got, want)
	}
	got := rec.Events()
	if len(got) != 3 || got[0].ID != a.ID || got[1].ID != b.ID || got[2].ID != c.ID {
		t.Fatalf("Events() = %+v, want a, b, c", got)
	}
}

func TestRecorderEventsIsACopy(t *testing.T) {
	var rec eventstest.Recorder
	if err := rec.Publish(t.Context(), event(t, "a.made")); err != nil {
		t.Fatal(err)
	}
	got := rec.Events()
	got[0].Type = "changed"
	if err := rec.Publish(t.Context(), event(t, "b.made")); err != nil {
		t.Fatal(err)
	}
	if types := rec.Types(); !slices.Equal(types, []string{"a.made", "b.made"}) {
		t.Fatalf("Types() after editing the copy = %v", types)
	}
}

func TestRecorderReset(t *testing.T) {
	var rec eventstest.Recorder
	if err := rec.Publish(t.Context(), event(t, "a.made")); err != nil {
		t.Fatal(err)
	}
	rec.Reset()
	if n := len(rec.Events()); n != 0 {
		t.Fatalf("%d events after Reset, want 0", n)
	}
	if err := rec.Publish(t.Context(), event(t, "b.made")); err != nil {
		t.Fatal(err)
	}
	if types := rec.Types(); !slices.Equal(types, []string{"b.made"}) {
		t.Fatalf("Types() after Reset and Publish = %v", types)
	}
}

// Concurrent publishers lose no event (run with -race to check the lock).
func TestRecorderConcurrentPublish(t *testing.T) {
	var rec eventstest.Recorder
	e := event(t, "a.made")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				if err := rec.Publish(t.Context(), e); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if n := len(rec.Events()); n != 400 {
		t.Fatalf("recorded %d events, want 400", n)
	}
}
