package store_test

import (
	"fmt"
	"testing"

	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-notify/internal/notify"
)

// TestHotPathsGoByID checks that adding, marking read and deleting a
// notification and reading a user-data page only ever address documents
// by _id: the one filter
// FerretDB answers without scanning the collection (and an index hit on
// MongoDB), so neither grows with the number of notifications.
func TestHotPathsGoByID(t *testing.T) {
	t.Parallel()
	s, rec := recordedStore(t)
	ctx := t.Context()
	for i := range 130 {
		save(t, s, "ws1", note(fmt.Sprintf("n%03d", i), int64(i), to("u1")))
	}
	sends := rec.Record(func() {
		save(t, s, "ws1", note("n050", 200, to("u1", "u2"))) // a re-add: replaces, keeps u1's entry, starts u2's feed
	})
	marks := rec.Record(func() {
		if _, err := s.MarkRead(ctx, "ws1", "o1", "n010", []string{"u1"}, true, "r9"); err != nil {
			t.Fatal(err)
		}
	})
	deletes := rec.Record(func() {
		if err := s.DeleteNotifications(ctx, "ws1", "o1", []string{"n011", "missing"}); err != nil {
			t.Fatal(err)
		}
	})
	var page []notify.Notification
	var err error
	reads := rec.Record(func() {
		if page, _, err = s.UserFeed(ctx, "ws1", "o1", "u1", 0, 40); err != nil {
			t.Fatal(err)
		}
	})
	if len(page) != 40 || page[0].ID != "n129" {
		t.Fatalf("page of %d starting at %v", len(page), idsOf(page[:1]))
	}
	for name, sent := range map[string]testenv.Sent{"add": sends, "mark read": marks, "delete by id": deletes, "user-data page": reads} {
		if scans := sent.Scans(); len(scans) > 0 {
			t.Errorf("%s sent %v: selections other than an exact _id", name, scans)
		}
		for _, c := range sent {
			if len(c.Filters) == 0 && c.Name != "insert" { // an insert writes new documents by _id
				t.Errorf("%s sent %s, which selects without a filter by _id", name, c.Name)
			}
		}
	}
	// One head, at most two feed pages and one lookup per entry (41 to
	// know whether a next page exists).
	if len(reads) > 1+2+41 {
		t.Fatalf("a page of 40 took %d commands: %v", len(reads), reads)
	}
}
