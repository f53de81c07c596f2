package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/opencollab/backend/pkg/service/servicetest"
	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-notify/internal/notify"
	"github.com/opencollab/backend/svc-notify/internal/store"
)

func newStore(t *testing.T) *store.Mongo {
	return servicetest.Indexed(t, store.NewMongo(testenv.Mongo(t)))
}

func user(id string) notify.User {
	return notify.User{ID: id, Raw: json.RawMessage(`{"userId":"` + id + `","name":"User ` + id + `"}`)}
}

// note is a notification of org o1, document d1 by user "actor".
func note(id string, ts int64, opts ...func(*notify.Notification)) notify.Notification {
	n := notify.Notification{
		OrganizationID: "o1", DocumentID: "d1", ID: id, ActionUser: user("actor"),
		HeadlineTemplate: "{actionUser} did it", BodyMessage: "body", NotifyAll: true,
		Timestamp: ts, Rev: "r0",
	}
	for _, o := range opts {
		o(&n)
	}
	return n
}

func to(ids ...string) func(*notify.Notification) {
	return func(n *notify.Notification) {
		n.NotifyAll = false
		for _, id := range ids {
			n.NotifyUsers = append(n.NotifyUsers, user(id))
		}
	}
}

func save(t *testing.T, s *store.Mongo, ws string, ns ...notify.Notification) {
	t.Helper()
	for _, n := range ns {
		if err := s.SaveNotification(context.Background(), ws, n); err != nil {
			t.Fatal(err)
		}
	}
}

func idsOf(ns []notify.Notification) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.ID
	}
	return out
}

func list(t *testing.T, s *store.Mongo, ws string, q notify.ListQuery) []string {
	t.Helper()
	if q.OrganizationID == "" {
		q.OrganizationID = "o1"
	}
	if q.Limit == 0 {
		q.Limit = 100
	}
	ns, err := s.ListNotifications(context.Background(), ws, q)
	if err != nil {
		t.Fatal(err)
	}
	return idsOf(ns)
}

func TestSaveAndReadBack(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	n := note("n1", 1000, func(n *notify.Notification) {
		n.LocationID, n.Location = "loc1", json.RawMessage(`{"id":"loc1","locationName":"Intro"}`)
		n.Source, n.SourceData = "comment", json.RawMessage(`{"annotationId":"a1","n":2}`)
		n.HeadlineData = json.RawMessage(`{"recipientUser":{"userId":"r1"},"custom":"<i>x</i>"}`)
		n.NotifyUsers = []notify.User{user("u1")}
		n.Context = json.RawMessage(`{"access":{"team":"a"}}`)
	})
	save(t, s, "ws1", n)
	got, err := s.MatchNotifications(context.Background(), "ws1", notify.Filter{OrganizationID: "o1", IDs: []string{"n1"}})
	if err != nil || len(got) != 1 {
		t.Fatalf("match: %v, %v", got, err)
	}
	g := got[0]
	checks := map[string][2]string{
		"location":     {string(g.Location), string(n.Location)},
		"sourceData":   {string(g.SourceData), string(n.SourceData)},
		"headlineData": {string(g.HeadlineData), string(n.HeadlineData)},
		"actionUser":   {string(g.ActionUser.Raw), string(n.ActionUser.Raw)},
		"notifyUser":   {string(g.NotifyUsers[0].Raw), string(n.NotifyUsers[0].Raw)},
		"context":      {string(g.Context), string(n.Context)},
		"ids":          {g.ActionUser.ID + g.NotifyUsers[0].ID + g.LocationID, "actoru1loc1"},
	}
	for name, c := range checks {
		if c[0] != c[1] {
			t.Errorf("%s: got %s, want %s", name, c[0], c[1])
		}
	}
	if !slices.Equal(g.Recipients(), []string{"r1", "u1"}) || g.Timestamp != 1000 || g.Rev != "r0" {
		t.Errorf("read back %+v", g)
	}

	// Saving the same id again replaces it: one notification, the new content.
	save(t, s, "ws1", note("n1", 2000, func(n *notify.Notification) { n.BodyMessage = "second" }))
	got, _ = s.MatchNotifications(context.Background(), "ws1", notify.Filter{OrganizationID: "o1"})
	if len(got) != 1 || got[0].BodyMessage != "second" || got[0].LocationID != "" || got[0].Timestamp != 2000 {
		t.Fatalf("after re-save: %+v", got)
	}
}

func TestListOrderAndKeyset(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	// Equal timestamps are ordered by id.
	save(t, s, "ws1", note("a", 10), note("b", 20), note("c", 20), note("d", 20), note("e", 30))
	desc := list(t, s, "ws1", notify.ListQuery{})
	if want := []string{"e", "d", "c", "b", "a"}; !slices.Equal(desc, want) {
		t.Fatalf("desc %v, want %v", desc, want)
	}
	asc := list(t, s, "ws1", notify.ListQuery{Ascending: true})
	if want := []string{"a", "b", "c", "d", "e"}; !slices.Equal(asc, want) {
		t.Fatalf("asc %v, want %v", asc, want)
	}
	for _, ascending := range []bool{false, true} {
		var walked []string
		var after *notify.Cursor
		for range 10 {
			ns, err := s.ListNotifications(context.Background(), "ws1", notify.ListQuery{
				Filter: notify.Filter{OrganizationID: "o1"}, Ascending: ascending, After: after, Limit: 2,
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(ns) == 0 {
				break
			}
			walked = append(walked, idsOf(ns)...)
			last := ns[len(ns)-1]
			after = &notify.Cursor{Timestamp: last.Timestamp, ID: last.ID}
		}
		want := desc
		if ascending {
			want = asc
		}
		if !slices.Equal(walked, want) {
			t.Fatalf("ascending=%v: pages walked %v, want %v", ascending, walked, want)
		}
	}
}

func TestListViews(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	read := func(n *notify.Notification) { n.ReadBy = []string{"u1"} }
	kept := func(n *notify.Notification) { n.ReadBy, n.PersistReadFor = []string{"u1"}, []string{"u1"} }
	recipient := func(id string) func(*notify.Notification) {
		return func(n *notify.Notification) { n.HeadlineData = json.RawMessage(`{"recipientUser":"` + id + `"}`) }
	}
	save(t, s, "ws1",
		note("everyone", 1),             // whole organization
		note("direct", 2, to("u1")),     // to u1 only
		note("read", 3, to("u1"), read), // to u1, read
		note("kept", 4, to("u1"), kept), // to u1, read, kept in For You
		note("other", 5, to("u2")),      // to u2 only
		note("byU1", 6, to("u2"), func(n *notify.Notification) { n.ActionUser = user("u1") }),
		note("recip", 7, recipient("u1")), // whole organization, recipientUser u1
		note("elsewhere", 8, func(n *notify.Notification) { n.DocumentID = "d2" }),
	)
	tests := []struct {
		name string
		q    notify.ListQuery
		want []string
	}{
		{"all of the organization", notify.ListQuery{}, []string{"elsewhere", "recip", "byU1", "other", "kept", "read", "direct", "everyone"}},
		{"all tab of u1", notify.ListQuery{VisibleTo: "u1"}, []string{"elsewhere", "recip", "kept", "read", "direct", "everyone"}},
		{"For You of u1", notify.ListQuery{ForYou: "u1"}, []string{"recip", "kept", "direct"}},
		{"For You of u2", notify.ListQuery{ForYou: "u2"}, []string{"byU1", "other"}},
		{"document d2", notify.ListQuery{Filter: notify.Filter{DocumentID: "d2"}}, []string{"elsewhere"}},
		{"recipient filter", notify.ListQuery{Filter: notify.Filter{RecipientID: "u1"}}, []string{"recip", "kept", "read", "direct"}},
		{"ids", notify.ListQuery{Filter: notify.Filter{IDs: []string{"read", "nope", "other"}}}, []string{"other", "read"}},
		{"another organization", notify.ListQuery{Filter: notify.Filter{OrganizationID: "o2"}}, []string{}},
	}
	for _, tt := range tests {
		if got := list(t, s, "ws1", tt.q); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestWorkspacesAreIsolated(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := context.Background()
	save(t, s, "ws1", note("n1", 1, to("u1")))
	save(t, s, "ws2", note("n1", 2, to("u1"), func(n *notify.Notification) { n.BodyMessage = "ws2" }))
	if got := feed(t, s, "ws1", "u1", 10); !slices.Equal(got, []string{"n1"}) {
		t.Fatalf("ws1's feed of u1: %v", got)
	}
	if err := s.DeleteNotifications(ctx, "ws2", "o1", []string{"n1"}); err != nil {
		t.Fatal(err)
	}
	if got := list(t, s, "ws1", notify.ListQuery{}); len(got) != 1 {
		t.Fatal("deleting in ws2 removed ws1's notification")
	}
	if got := feed(t, s, "ws2", "u1", 10); len(got) != 0 {
		t.Fatalf("ws2's feed after deleting its notification: %v", got)
	}
	if moved, err := s.MoveDocument(ctx, "ws2", "o1", "d1", "d9"); err != nil || moved != 0 {
		t.Fatalf("ws2 moved %d (%v)", moved, err)
	}
	if has, _ := s.DocumentHasData(ctx, "ws2", "o1", "d1"); has {
		t.Fatal("ws2 sees ws1's document data")
	}
}

func TestUpdateNotificationChecksRevision(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := context.Background()
	save(t, s, "ws1", note("n1", 1, to("u1")))
	next := note("n1", 1, to("u1"), func(n *notify.Notification) {
		n.ReadBy, n.BodyMessage, n.Rev = []string{"u1"}, "changed", "r1"
		n.HeadlineData = json.RawMessage(`{"recipientUser":"u3"}`)
	})
	if err := s.UpdateNotification(ctx, "ws1", next, "stale"); !errors.Is(err, notify.ErrConflict) {
		t.Fatalf("stale revision: err = %v, want ErrConflict", err)
	}
	if err := s.UpdateNotification(ctx, "ws1", next, "r0"); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateNotification(ctx, "ws1", next, "r0"); !errors.Is(err, notify.ErrConflict) {
		t.Fatalf("second write with the old revision: err = %v, want ErrConflict", err)
	}
	// The derived audience follows the new recipientUser.
	if got := list(t, s, "ws1", notify.ListQuery{VisibleTo: "u3"}); !slices.Equal(got, []string{"n1"}) {
		t.Fatalf("u3 sees %v after becoming the recipient", got)
	}
	got, _ := s.MatchNotifications(ctx, "ws1", notify.Filter{OrganizationID: "o1"})
	if got[0].BodyMessage != "changed" || got[0].Rev != "r1" || !got[0].IsReadBy("u1") {
		t.Fatalf("after update: %+v", got[0])
	}
	if err := s.UpdateNotification(ctx, "ws1", note("gone", 1), "r0"); !errors.Is(err, notify.ErrConflict) {
		t.Fatalf("missing notification: err = %v, want ErrConflict", err)
	}
}

func TestMarkRead(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := context.Background()
	save(t, s, "ws1", note("n1", 1, to("u1", "u2", "u3")))
	var wg sync.WaitGroup
	for _, u := range []string{"u1", "u2", "u3"} {
		wg.Go(func() {
			if _, err := s.MarkRead(ctx, "ws1", "o1", "n1", []string{u}, u == "u3", "r-"+u); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	got, _ := s.MatchNotifications(ctx, "ws1", notify.Filter{OrganizationID: "o1", IDs: []string{"n1"}})
	readers := slices.Sorted(slices.Values(got[0].ReadBy))
	if !slices.Equal(readers, []string{"u1", "u2", "u3"}) || !slices.Equal(got[0].PersistReadFor, []string{"u3"}) {
		t.Fatalf("after concurrent marks: readBy %v, persist %v", got[0].ReadBy, got[0].PersistReadFor)
	}
	if _, err := s.MarkRead(ctx, "ws1", "o1", "missing", []string{"u1"}, false, "r"); !errors.Is(err, notify.ErrConflict) {
		t.Fatalf("missing notification: %v", err)
	}
	if _, err := s.MarkRead(ctx, "ws2", "o1", "n1", []string{"u1"}, false, "r"); !errors.Is(err, notify.ErrConflict) {
		t.Fatalf("another workspace marked ws1's notification: %v", err)
	}
}
