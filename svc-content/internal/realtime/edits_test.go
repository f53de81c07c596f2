package realtime

import (
	"context"
	"sync"
	"testing"
	"time"
)

type recordedEdits struct {
	mu  sync.Mutex
	got []Author
}

func (r *recordedEdits) PublishEdit(_ context.Context, _ DocKey, by Author) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, by)
	return nil
}

func (r *recordedEdits) published() []Author {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Author(nil), r.got...)
}

// Edits of one editor in quick succession publish one event, after the
// quiet time, naming the last author; another editor has its own.
func TestDebouncerPublishesOncePerQuietEditor(t *testing.T) {
	t.Parallel()
	rec := &recordedEdits{}
	d := NewDebouncer(rec, 100*time.Millisecond, nil)
	k1, k2 := DocKey{"ws", "o", "d", "e1"}, DocKey{"ws", "o", "d", "e2"}
	for i, user := range []string{"ada", "bob", "cid"} {
		d.Edited(k1, []Author{{UserID: user, SessionID: "s" + string(rune('0'+i))}})
		time.Sleep(20 * time.Millisecond)
	}
	d.Edited(k2, []Author{{UserID: "dan", SessionID: "x"}})
	if got := rec.published(); len(got) != 0 {
		t.Fatalf("published before the quiet time: %v", got)
	}
	time.Sleep(300 * time.Millisecond)
	got := rec.published()
	if len(got) != 2 {
		t.Fatalf("published %v, want one event per editor", got)
	}
	for _, a := range got {
		if a.UserID != "cid" && a.UserID != "dan" {
			t.Errorf("event names %v; want the last author of each editor", a)
		}
	}
}

// A busy editor is still published at least every maxWait.
func TestDebouncerPublishesABusyEditor(t *testing.T) {
	t.Parallel()
	rec := &recordedEdits{}
	d := NewDebouncer(rec, 50*time.Millisecond, nil) // maxWait 300 ms
	k := DocKey{"ws", "o", "d", "e"}
	end := time.Now().Add(600 * time.Millisecond)
	for time.Now().Before(end) {
		d.Edited(k, []Author{{UserID: "ada"}})
		time.Sleep(10 * time.Millisecond)
	}
	if n := len(rec.published()); n == 0 {
		t.Fatal("a continuously edited editor was never published")
	}
	d.Flush()
}
