package store_test

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-notify/internal/store"
)

// recordedStore is a store on a fresh database whose commands the
// returned counter keeps.
func recordedStore(t *testing.T) (*store.Mongo, *testenv.CommandCounter) {
	t.Helper()
	db, counter := testenv.CountingMongo(t)
	s := store.NewMongo(db)
	if err := s.EnsureIndexes(t.Context()); err != nil {
		t.Fatal(err)
	}
	return s, counter
}

// A notification for 600 users without a feed starts their feeds with
// one insert of heads and one of pages per 250 users, and the same add
// again writes no feed at all: both cost a few store commands, not two
// per user.
func TestSaveNotificationWritesNewFeedsInBulk(t *testing.T) {
	t.Parallel()
	s, rec := recordedStore(t)
	users := make([]string, 600)
	for i := range users {
		users[i] = fmt.Sprintf("u%03d", i)
	}
	n := note("n1", 1, to(users...))
	first := rec.Count(func() { save(t, s, "ws1", n) })
	// Involved: the 600 users and the actor, 601 feeds in 3 chunks.
	if want := map[string]int{"find": 1, "insert": 6, "update": 1}; !maps.Equal(first, want) {
		t.Errorf("first add sent %v, want %v", first, want)
	}
	again := rec.Count(func() { save(t, s, "ws1", n) })
	if want := map[string]int{"find": 1, "update": 1}; !maps.Equal(again, want) {
		t.Errorf("the same add again sent %v, want %v", again, want)
	}
	for _, u := range []string{"u000", "u249", "u250", "u599", "actor"} {
		if got := feed(t, s, "ws1", u, 10); !slices.Equal(got, []string{"n1"}) {
			t.Fatalf("feed of %s: %v, want [n1]", u, got)
		}
	}
	// A second notification finds the feeds started: one failed insert of
	// heads per 250 users, then per 125 one update of heads, their read and
	// one update of pages, where it sent two commands per feed.
	second := rec.Count(func() { save(t, s, "ws1", note("n2", 2, to(users...))) })
	if second["insert"] != 3 || second["update"] != 5+5+1 || second["findAndModify"] != 0 {
		t.Errorf("second notification sent %v, want 3 inserts, 11 updates (5 of heads, 5 of pages, the notification), no findAndModify", second)
	}
	for _, u := range []string{"u000", "u599"} {
		if got := feed(t, s, "ws1", u, 10); !slices.Equal(got, []string{"n2", "n1"}) {
			t.Fatalf("feed of %s after a second notification: %v, want [n2 n1]", u, got)
		}
	}
}
