package crdt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// countingStore counts the store calls of the append path and can fail
// DeleteLog and InsertState (a crash around a compaction's writes).
type countingStore struct {
	Store
	appendCalls, sizeCalls atomic.Int64
	failDelete, failInsert atomic.Bool
}

func (s *countingStore) InsertState(ctx context.Context, ws string, st State) error {
	if s.failInsert.Load() {
		return errors.New("crash")
	}
	return s.Store.InsertState(ctx, ws, st)
}

func (s *countingStore) AppendLog(ctx context.Context, entries []WorkspaceEntry) []error {
	s.appendCalls.Add(1)
	return s.Store.AppendLog(ctx, entries)
}

func (s *countingStore) StateSizes(ctx context.Context, eds []WorkspaceEditor) (map[WorkspaceEditor]int64, error) {
	s.sizeCalls.Add(1)
	return s.Store.StateSizes(ctx, eds)
}

func (s *countingStore) DeleteLog(ctx context.Context, ws string, ed Editor, from, through int64, legacy []LogEntry) error {
	if s.failDelete.Load() {
		return errors.New("crash")
	}
	return s.Store.DeleteLog(ctx, ws, ed, from, through, legacy)
}

func newCountingService(t *testing.T, settings Settings) (*Service, *countingStore) {
	t.Helper()
	base, _ := newTestService(t)
	cs := &countingStore{Store: base.store}
	svc := newService(cs, nil, base.now, settings)
	t.Cleanup(svc.Wait)
	return svc, cs
}

// textEdit is a client's update inserting s at the end of the text at key
// of a document holding state.
func textEdit(t testing.TB, state []byte, key, s string, client uint64) []byte {
	t.Helper()
	d := yjs.NewDoc(client)
	if state != nil {
		if err := d.ApplyUpdate(state); err != nil {
			t.Fatal(err)
		}
	}
	text := d.Text(key)
	u, err := d.Transact(func(tx *yjs.Tx) error { return text.Insert(tx, text.Len(), s, nil) })
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func getData(t *testing.T, svc *Service, e Editor) string {
	t.Helper()
	views, err := svc.Get(t.Context(), "ws1", e.OrganizationID, e.DocumentID, e.EditorID, Query{})
	if err != nil || len(views) != 1 {
		t.Fatalf("get %v: %v %v", e, views, err)
	}
	return string(views[0].Data)
}

// A batch of many editors is one log insert; the editors' existence is
// read once and then remembered.
func TestAppendUpdatesBatchIsOneRoundTrip(t *testing.T) {
	svc, cs := newCountingService(t, Settings{CompactEntries: 1000})
	ctx := t.Context()
	var eds []Editor
	for i := range 5 {
		e := Editor{"org1", "doc1", fmt.Sprintf("e%d", i)}
		if err := svc.Add(ctx, "ws1", e, content("text", `"x"`), ""); err != nil {
			t.Fatal(err)
		}
		eds = append(eds, e)
	}
	var states [][]byte
	for _, e := range eds {
		state, _ := svc.LoadUpdate(ctx, "ws1", e)
		states = append(states, state)
	}
	svc.editors.forget() // as a replica that did not load them (a load tells their sizes)
	for round := range 3 {
		var batch []Append
		for i, e := range eds {
			batch = append(batch, Append{Workspace: "ws1", Editor: e, Update: textEdit(t, states[i], "content", fmt.Sprint(round), uint64(100+10*round+i)), UserID: "u"})
		}
		for i, err := range svc.AppendUpdates(ctx, batch) {
			if err != nil {
				t.Fatalf("round %d item %d: %v", round, i, err)
			}
		}
	}
	if n := cs.appendCalls.Load(); n != 3 {
		t.Fatalf("3 batches made %d log inserts", n)
	}
	if n := cs.sizeCalls.Load(); n != 1 {
		t.Fatalf("existence was read %d times, want once", n)
	}
	for _, e := range eds {
		if got := getData(t, svc, e); len(got) != len(`"x012"`) {
			t.Fatalf("%s = %s, want x and the three edits", e.EditorID, got)
		}
	}
}

// An editor without data is created by its first update with content;
// a malformed update fails alone; the size limit is a clear error.
func TestAppendUpdatesCreatesAndRefuses(t *testing.T) {
	svc, _ := newCountingService(t, Settings{MaxDocumentBytes: 200})
	ctx := t.Context()
	created := Editor{"org1", "doc1", "new"}
	first := textEdit(t, nil, "body", "hello", 7)
	errs := svc.AppendUpdates(ctx, []Append{
		{Workspace: "ws1", Editor: created, Update: []byte{0, 0}},
		{Workspace: "ws1", Editor: created, Update: first},
		{Workspace: "ws1", Editor: Editor{"org1", "doc1", "bad"}, Update: []byte{9, 9, 9}},
		{Workspace: "ws1", Editor: created, Update: textEdit(t, first, "body", " world", 8)},
	})
	if errs[0] != nil || errs[1] != nil || errs[3] != nil || !api.IsStatus(errs[2], api.InvalidArgument) {
		t.Fatalf("errs = %v", errs)
	}
	views, _ := svc.Get(ctx, "ws1", "org1", "doc1", "new", Query{})
	if len(views) != 1 || views[0].Type != "text" || views[0].ContentKey != "body" || string(views[0].Data) != `"hello world"` {
		t.Fatalf("created editor = %+v", views)
	}
	if v, _ := svc.Get(ctx, "ws1", "org1", "doc1", "bad", Query{}); len(v) != 0 {
		t.Fatalf("a malformed update created %+v", v)
	}
	state, _ := svc.LoadUpdate(ctx, "ws1", created)
	big := textEdit(t, state, "body", string(make([]byte, 300)), 9)
	err := svc.AppendUpdate(ctx, "ws1", created, big, "")
	if !api.IsStatus(err, api.InvalidArgument) || !strings.Contains(err.Error(), "limit is 200 bytes") {
		t.Fatalf("past the size limit: %v", err)
	}
}

// Compaction merges the log into a new state and drops exactly the
// entries the replaced state merged; a crash on either side of the drop
// (before the new state is stored) loses nothing.
func TestCompactionIsCrashSafe(t *testing.T) {
	svc, cs := newCountingService(t, Settings{CompactEntries: 1000})
	ctx := t.Context()
	if err := svc.Add(ctx, "ws1", ed, content("text", `"a"`), ""); err != nil {
		t.Fatal(err)
	}
	client := uint64(10)
	appendLetters := func(letters ...string) {
		for _, s := range letters {
			client++
			state, _ := svc.LoadUpdate(ctx, "ws1", ed)
			if err := svc.AppendUpdate(ctx, "ws1", ed, textEdit(t, state, "content", s, client), "u"); err != nil {
				t.Fatal(err)
			}
		}
	}
	check := func(when string, version int64, unmerged, stored int, data string) {
		t.Helper()
		st, log, err := svc.store.FindCurrent(ctx, "ws1", ed)
		left, _ := svc.store.FindDocumentLog(ctx, "ws1", ed.OrganizationID, ed.DocumentID)
		if err != nil || st.Version != version || len(log) != unmerged || len(left) != stored || getData(t, svc, ed) != data {
			t.Fatalf("%s: version %d, %d unmerged, %d stored, data %s (%v); want %d, %d, %d, %s",
				when, st.Version, len(log), len(left), getData(t, svc, ed), err, version, unmerged, stored, data)
		}
	}
	appendLetters("b", "c", "d")
	if err := svc.Compact(ctx, "ws1", ed); err != nil { // v2 merges b c d; v1 merged nothing to free
		t.Fatal(err)
	}
	appendLetters("e")
	later := svc.now().Add(logDeleteLag) // v2's entries settled: the next compaction frees them
	svc.now = func() time.Time { return later }
	cs.failDelete.Store(true)
	if err := svc.Compact(ctx, "ws1", ed); err == nil {
		t.Fatal("compaction with a failing log delete reported success")
	}
	check("after a failed delete", 2, 1, 4, `"abcde"`)
	cs.failDelete.Store(false)
	cs.failInsert.Store(true)
	if err := svc.Compact(ctx, "ws1", ed); err == nil {
		t.Fatal("compaction with a failing state insert reported success")
	}
	check("after the delete, before the state", 2, 1, 1, `"abcde"`)
	cs.failInsert.Store(false)
	if err := svc.Compact(ctx, "ws1", ed); err != nil {
		t.Fatal(err)
	}
	check("after compaction", 3, 0, 1, `"abcde"`)
	if st, _, _ := svc.store.FindCurrent(ctx, "ws1", ed); string(st.Data) != `"abcde"` {
		t.Fatalf("state data %s", st.Data)
	}
}

// Compactions racing each other and the appends lose no update: of two
// compactions of one version only one stores it, the other drops nothing.
func TestConcurrentCompactionsLoseNothing(t *testing.T) {
	svc, _ := newCountingService(t, Settings{CompactEntries: 3})
	other := newService(svc.store, nil, svc.now, Settings{CompactEntries: 2}) // a second replica
	ctx := t.Context()
	if err := svc.Add(ctx, "ws1", ed, content("array", `[]`), ""); err != nil {
		t.Fatal(err)
	}
	state, _ := svc.LoadUpdate(ctx, "ws1", ed)
	const n = 40
	var wg sync.WaitGroup
	for i := range n {
		replica := svc
		if i%2 == 1 {
			replica = other
		}
		wg.Go(func() {
			d := yjs.NewDoc(uint64(1000 + i))
			_ = d.ApplyUpdate(state)
			arr := d.Array("content")
			u, _ := d.Transact(func(tx *yjs.Tx) error { return arr.Push(tx, float64(i)) })
			if err := replica.AppendUpdate(ctx, "ws1", ed, u, ""); err != nil {
				t.Error(err)
			}
			if i%5 == 0 {
				_ = replica.Compact(ctx, "ws1", ed)
			}
		})
	}
	wg.Wait()
	svc.Wait()
	other.Wait()
	if err := other.Compact(ctx, "ws1", ed); err != nil {
		t.Fatal(err)
	}
	var got []int
	if err := json.Unmarshal([]byte(getData(t, svc, ed)), &got); err != nil || len(got) != n {
		t.Fatalf("after racing compactions %d of %d updates remain: %v %v", len(got), n, got, err)
	}
}

// A compaction that read an old version and stores late hits the slot
// its marker keeps and drops nothing.
func TestStaleCompactionConflicts(t *testing.T) {
	svc, _ := newCountingService(t, Settings{CompactEntries: 1000})
	ctx := t.Context()
	if err := svc.Add(ctx, "ws1", ed, content("text", `"v"`), ""); err != nil {
		t.Fatal(err)
	}
	stale, _ := svc.store.FindState(ctx, "ws1", ed)
	for _, s := range []string{"1", "2"} {
		state, _ := svc.LoadUpdate(ctx, "ws1", ed)
		if err := svc.AppendUpdate(ctx, "ws1", ed, textEdit(t, state, "content", s, 50), ""); err != nil {
			t.Fatal(err)
		}
		if err := svc.Compact(ctx, "ws1", ed); err != nil {
			t.Fatal(err)
		}
	}
	stale.Version = 2
	if err := svc.store.InsertState(ctx, "ws1", stale); !errors.Is(err, ErrExists) {
		t.Fatalf("stale insert of version 2: %v, want ErrExists", err)
	}
	later := svc.now().Add(markerRetention + time.Second)
	svc.now = func() time.Time { return later }
	state, _ := svc.LoadUpdate(ctx, "ws1", ed)
	_ = svc.AppendUpdate(ctx, "ws1", ed, textEdit(t, state, "content", "3", 50), "")
	if err := svc.Compact(ctx, "ws1", ed); err != nil {
		t.Fatal(err)
	}
	if err := svc.Add(ctx, "ws1", ed, content("text", `"again"`), ""); !api.IsStatus(err, api.AlreadyExists) {
		t.Fatalf("add after pruning: %v", err)
	}
	if got := getData(t, svc, ed); got != `"v123"` {
		t.Fatalf("data %s", got)
	}
}
