package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/opencollab/backend/svc-notify/internal/notify"
	"github.com/opencollab/backend/svc-notify/internal/store"
)

// feed walks userID's whole feed in pages of limit and returns the ids.
func feed(t *testing.T, s *store.Mongo, ws, userID string, limit int) []string {
	t.Helper()
	var out []string
	var before int64
	for range 1000 {
		ns, next, err := s.UserFeed(context.Background(), ws, "o1", userID, before, limit)
		if err != nil {
			t.Fatal(err)
		}
		if len(ns) > limit || (next != 0 && len(ns) != limit) {
			t.Fatalf("page of %d with next %d (limit %d)", len(ns), next, limit)
		}
		out = append(out, idsOf(ns)...)
		if next == 0 {
			return out
		}
		before = next
	}
	t.Fatal("feed pages do not end")
	return nil
}

func TestUserFeedPages(t *testing.T) {
	t.Parallel()
	for _, point := range []bool{true, false} {
		t.Run(map[bool]string{true: "point reads", false: "$in"}[point], func(t *testing.T) {
			t.Parallel()
			s := newStore(t)
			s.SetPointReads(point)
			limits := []int{100, 7, 1}
			if !point {
				// Paging is the same code in both modes; only how a batch
				// of entries is read differs. The $in read is what limits
				// 100 and 7 exercise (many ids in one read, answered in
				// the database's order); limit 1 would add 205 reads of
				// two ids, each a full scan on FerretDB (~15 s of CPU),
				// proving nothing the point-reads walk does not.
				limits = limits[:2]
			}
			testUserFeedPages(t, s, limits)
		})
	}
}

func testUserFeedPages(t *testing.T, s *store.Mongo, limits []int) {
	// 205 notifications for u1 span three feed pages (of 100 entries);
	// some in between are not u1's.
	var want []string
	for i := range 205 {
		id := fmt.Sprintf("n%03d", i)
		save(t, s, "ws1", note(id, int64(i), to("u1")))
		if i%20 == 0 {
			save(t, s, "ws1", note("x"+id, int64(i), to("u2")))
		}
		want = append([]string{id}, want...)
	}
	for _, limit := range limits {
		if got := feed(t, s, "ws1", "u1", limit); !slices.Equal(got, want) {
			t.Fatalf("limit %d: walked %d ids, want %d newest first without gaps", limit, len(got), len(want))
		}
	}
	if got := feed(t, s, "ws1", "nobody", 10); len(got) != 0 {
		t.Fatalf("empty feed: %v", got)
	}
}

func TestUserFeedFollowsChanges(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := context.Background()
	save(t, s, "ws1", note("a", 1, to("u1")), note("b", 2, to("u1")), note("c", 3, to("u2")), note("d", 4, to("u1")))
	check := func(step, user string, want ...string) {
		t.Helper()
		if got := feed(t, s, "ws1", user, 2); !slices.Equal(got, want) {
			t.Fatalf("%s: feed of %s is %v, want %v", step, user, got, want)
		}
	}
	check("start", "u1", "d", "b", "a")
	check("start", "actor", "d", "c", "b", "a") // the acting user is involved too

	// Re-adding keeps a notification where it became the user's (the same
	// add again writes no feed entry) and leaves no duplicate.
	save(t, s, "ws1", note("a", 5, to("u1")))
	check("re-add", "u1", "d", "b", "a")

	// Deleting drops it.
	if err := s.DeleteNotifications(ctx, "ws1", "o1", []string{"b", "missing"}); err != nil {
		t.Fatal(err)
	}
	check("delete", "u1", "d", "a")

	// An update that changes the recipient moves it between feeds.
	cur, _ := s.MatchNotifications(ctx, "ws1", notify.Filter{OrganizationID: "o1", IDs: []string{"c"}})
	next := cur[0]
	next.HeadlineData, next.Rev = json.RawMessage(`{"recipientUser":"u1"}`), "r1"
	next.NotifyUsers, next.NotifyAll = nil, true
	if err := s.UpdateNotification(ctx, "ws1", next, cur[0].Rev); err != nil {
		t.Fatal(err)
	}
	check("recipient changed", "u1", "c", "d", "a")
	check("recipient changed", "u2")

	// A re-add that drops a user takes it out of that user's feed; a user
	// it adds gets it at the head.
	save(t, s, "ws1", note("b", 7, to("u3")))
	save(t, s, "ws1", note("d", 6, to("u3")))
	check("re-added for someone else", "u1", "c", "a")
	check("re-added for someone else", "u3", "d", "b")
}

func TestUserFeedConcurrentAdds(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Go(func() {
			errs <- s.SaveNotification(context.Background(), "ws1", note(fmt.Sprintf("n%02d", i), int64(i), to("u1")))
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got := feed(t, s, "ws1", "u1", 100)
	slices.Sort(got)
	if len(got) != 40 || len(slices.Compact(got)) != 40 {
		t.Fatalf("feed after 40 concurrent adds: %d entries %v", len(got), got)
	}
}

// notifications/add writes the recipients' feed entries, then the
// notification. Failing in between leaves nothing visible, and the retry
// of the same add leaves exactly one notification in each feed.
func TestSaveNotificationFailingPartWayShowsNothingAndRetryCompletes(t *testing.T) {
	s := newStore(t)
	recipients := []string{"u1", "u2", "u3", "u4", "u5", "u6", "u7", "u8", "u9", "u10"}
	n := note("n1", 1, to(recipients...))
	s.FailAfterFeeds(errors.New("store went away"))
	if err := s.SaveNotification(context.Background(), "ws1", n); err == nil {
		t.Fatal("SaveNotification succeeded while failing part way")
	}
	for _, u := range recipients {
		if got := feed(t, s, "ws1", u, 10); len(got) != 0 {
			t.Fatalf("feed of %s after the failure: %v, want nothing", u, got)
		}
	}
	s.FailAfterFeeds(nil)
	save(t, s, "ws1", n)
	for _, u := range recipients {
		if got := feed(t, s, "ws1", u, 10); !slices.Equal(got, []string{"n1"}) {
			t.Fatalf("feed of %s after the retry: %v, want [n1]", u, got)
		}
	}
}
