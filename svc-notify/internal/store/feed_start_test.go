package store_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-notify/internal/store"
)

// recordedStore is a store whose client reports its commands to rec.
func recordedStore(t *testing.T, rec *recorder) *store.Mongo {
	t.Helper()
	client, err := mongo.Connect(options.Client().ApplyURI(testenv.MongoURI(t)).SetMonitor(&event.CommandMonitor{Started: rec.started}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Disconnect(context.Background()) })
	s := store.NewMongo(client.Database(testenv.FreshDBName(t)))
	if err := s.EnsureIndexes(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

// commandNames counts the commands of filters ("<command> <filter>") by name.
func commandNames(filters []string) map[string]int {
	out := map[string]int{}
	for _, f := range filters {
		name, _, _ := strings.Cut(f, " ")
		out[name]++
	}
	return out
}

// A notification for 600 users without a feed starts their feeds with
// one insert of heads and one of pages per 250 users, and the same add
// again writes no feed at all: both cost a few store commands, not two
// per user.
func TestSaveNotificationWritesNewFeedsInBulk(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s := recordedStore(t, rec)
	users := make([]string, 600)
	for i := range users {
		users[i] = fmt.Sprintf("u%03d", i)
	}
	n := note("n1", 1, to(users...))
	first := commandNames(rec.record(func() { save(t, s, "ws1", n) }))
	// Involved: the 600 users and the actor, 601 feeds in 3 chunks.
	if want := map[string]int{"find": 1, "insert": 6, "update": 1}; !maps.Equal(first, want) {
		t.Errorf("first add sent %v, want %v", first, want)
	}
	again := commandNames(rec.record(func() { save(t, s, "ws1", n) }))
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
	second := rec.commands(func() { save(t, s, "ws1", note("n2", 2, to(users...))) })
	if second["insert"] != 3 || second["update"] != 5+5+1 || second["findAndModify"] != 0 {
		t.Errorf("second notification sent %v, want 3 inserts, 11 updates (5 of heads, 5 of pages, the notification), no findAndModify", second)
	}
	for _, u := range []string{"u000", "u599"} {
		if got := feed(t, s, "ws1", u, 10); !slices.Equal(got, []string{"n2", "n1"}) {
			t.Fatalf("feed of %s after a second notification: %v, want [n2 n1]", u, got)
		}
	}
}
