package store_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-notify/internal/notify"
	"github.com/opencollab/backend/svc-notify/internal/store"
)

// recorder keeps the filters of the commands a client sends while on.
type recorder struct {
	mu      sync.Mutex
	on      bool
	filters []string // "<command> <filter>"
	sent    []string // the name of each command (one per command, not per statement)
}

func (r *recorder) started(_ context.Context, e *event.CommandStartedEvent) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.on {
		return
	}
	r.sent = append(r.sent, e.CommandName)
	cmd := e.Command
	switch e.CommandName {
	case "find":
		r.filters = append(r.filters, "find "+cmd.Lookup("filter").String())
	case "findAndModify":
		r.filters = append(r.filters, "findAndModify "+cmd.Lookup("query").String())
	case "update", "delete":
		key := map[string]string{"update": "updates", "delete": "deletes"}[e.CommandName]
		vals, _ := cmd.Lookup(key).Array().Values()
		for _, v := range vals {
			r.filters = append(r.filters, e.CommandName+" "+v.Document().Lookup("q").String())
		}
	default:
		r.filters = append(r.filters, e.CommandName)
	}
}

// record runs fn and returns the filters it sent.
func (r *recorder) record(fn func()) []string {
	r.mu.Lock()
	r.on, r.filters, r.sent = true, nil, nil
	r.mu.Unlock()
	fn()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.on = false
	return r.filters
}

// commands runs fn and counts the commands it sent by name.
func (r *recorder) commands(fn func()) map[string]int {
	r.record(fn)
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]int{}
	for _, name := range r.sent {
		out[name]++
	}
	return out
}

// TestHotPathsGoByID checks that adding, marking read and deleting a
// notification and reading a user-data page only ever address documents
// by _id: the one filter
// FerretDB answers without scanning the collection (and an index hit on
// MongoDB), so neither grows with the number of notifications.
func TestHotPathsGoByID(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	client, err := mongo.Connect(options.Client().ApplyURI(testenv.MongoURI(t)).SetMonitor(&event.CommandMonitor{Started: rec.started}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Disconnect(context.Background()) })
	s := store.NewMongo(client.Database(testenv.FreshDBName(t)))
	ctx := context.Background()
	if err := s.EnsureIndexes(ctx); err != nil {
		t.Fatal(err)
	}
	for i := range 130 {
		save(t, s, "ws1", note(fmt.Sprintf("n%03d", i), int64(i), to("u1")))
	}
	sends := rec.record(func() {
		save(t, s, "ws1", note("n050", 200, to("u1", "u2"))) // a re-add: replaces, keeps u1's entry, starts u2's feed
	})
	marks := rec.record(func() {
		if _, err := s.MarkRead(ctx, "ws1", "o1", "n010", []string{"u1"}, true, "r9"); err != nil {
			t.Fatal(err)
		}
	})
	deletes := rec.record(func() {
		if err := s.DeleteNotifications(ctx, "ws1", "o1", []string{"n011", "missing"}); err != nil {
			t.Fatal(err)
		}
	})
	var page []notify.Notification
	reads := rec.record(func() {
		if page, _, err = s.UserFeed(ctx, "ws1", "o1", "u1", 0, 40); err != nil {
			t.Fatal(err)
		}
	})
	if len(page) != 40 || page[0].ID != "n129" {
		t.Fatalf("page of %d starting at %v", len(page), idsOf(page[:1]))
	}
	for name, filters := range map[string][]string{"add": sends, "mark read": marks, "delete by id": deletes, "user-data page": reads} {
		for _, f := range filters {
			cmd, filter, _ := strings.Cut(f, " ")
			if cmd == "insert" {
				continue // no filter: new documents by _id
			}
			var d bson.D
			if err := bson.UnmarshalExtJSON([]byte(filter), false, &d); err != nil || len(d) != 1 || d[0].Key != "_id" {
				t.Errorf("%s sent %s: not a lookup by _id alone", name, f)
				continue
			}
			if _, ok := d[0].Value.(string); !ok {
				t.Errorf("%s sent %s: _id is not a plain value", name, f)
			}
		}
	}
	// One head, at most two feed pages and one lookup per entry (41 to
	// know whether a next page exists).
	if len(reads) > 1+2+41 {
		t.Fatalf("a page of 40 took %d commands: %v", len(reads), reads)
	}
}
