package crdt

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// reader is a realtime room's view of an editor: the document it holds
// and its Mark. It holds what it loaded, what it appended through its
// replica and what its catch-ups returned.
type reader struct {
	t    *testing.T
	svc  *Service
	doc  *yjs.Doc
	mark Mark
}

func newReader(t *testing.T, svc *Service) *reader {
	t.Helper()
	r := &reader{t: t, svc: svc, doc: yjs.NewDoc(1)}
	update, mark, err := svc.LoadMarked(t.Context(), "ws1", ed)
	if err != nil {
		t.Fatal(err)
	}
	r.apply(update)
	r.mark = mark
	return r
}

func (r *reader) apply(update []byte) {
	r.t.Helper()
	if update == nil {
		return
	}
	if err := r.doc.ApplyUpdate(update); err != nil {
		r.t.Fatal(err)
	}
}

// edit appends s through the reader's replica (as the room stores what
// its clients sent) and applies it.
func (r *reader) edit(s string, client uint64) {
	r.t.Helper()
	u := textEdit(r.t, nil, "content", s, client)
	if err := r.svc.AppendUpdate(r.t.Context(), "ws1", ed, u, ""); err != nil {
		r.t.Fatal(err)
	}
	r.apply(u)
}

// catchUp applies what CatchUp returns and reports its size.
func (r *reader) catchUp() int {
	r.t.Helper()
	update, mark, err := r.svc.CatchUp(r.t.Context(), "ws1", ed, r.mark)
	if err != nil {
		r.t.Fatal(err)
	}
	r.apply(update)
	r.mark = mark
	return len(update)
}

// text is the reader's text as get renders it.
func (r *reader) text() string {
	b, _ := json.Marshal(r.doc.Text("content").String())
	return string(b)
}

// A catch-up of a room whose replica wrote a long log reads only the
// entry another replica wrote and the end of the log, not the room's own
// entries back (a full read costs a find per entry).
func TestCatchUpReadsOnlyWhatTheRoomLacks(t *testing.T) {
	a, counter := newCommandCountingService(t, Settings{CompactEntries: 1000})
	b := newService(newMongoStore(a.store.(*mongoStore).states.Database()), nil, time.Now, Settings{CompactEntries: 1000})
	t.Cleanup(b.Wait)
	ctx := t.Context()
	if err := a.Add(ctx, "ws1", ed, content("text", `""`), ""); err != nil {
		t.Fatal(err)
	}
	room := newReader(t, a)
	const long = 40
	for i := range long {
		room.edit("a", uint64(100+i))
	}
	if err := b.AppendUpdate(ctx, "ws1", ed, textEdit(t, nil, "content", "b", 7), ""); err != nil {
		t.Fatal(err)
	}
	var size int
	sent := counter.Count(func() { size = room.catchUp() })
	t.Logf("catch-up after %d entries of the room and 1 of another replica: %v, %d bytes", long, sent, size)
	if sent["find"] > 3 || len(sent) != 1 {
		t.Errorf("catch-up sent %v, want at most 3 finds (the other replica's entry, the log's end, the next version)", sent)
	}
	if got := room.text(); got != getData(t, a, ed) {
		t.Fatalf("room holds %s, the store %s", got, getData(t, a, ed))
	}
	sent = counter.Count(func() { size = room.catchUp() })
	if sent["find"] > 2 || size != 0 {
		t.Errorf("a catch-up with nothing new sent %v and returned %d bytes, want at most 2 finds and nothing", sent, size)
	}
}

// Whatever other replicas, REST updates and compactions (merging and
// deleting entries the room never read) did, a room that catches up
// holds what the store holds; its own appends are not read back.
func TestCatchUpMissesNothing(t *testing.T) {
	for seed := range uint64(6) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { catchUpScenario(t, seed) })
	}
}

func catchUpScenario(t *testing.T, seed uint64) {
	a, b, clock := twoReplicas(t)
	ctx := t.Context()
	if err := a.Add(ctx, "ws1", ed, content("text", `"x"`), ""); err != nil {
		t.Fatal(err)
	}
	room := newReader(t, a)
	rng := rand.New(rand.NewPCG(seed, 1))
	client := uint64(100)
	for step := range 120 {
		client++
		switch n := rng.IntN(10); {
		case n < 4:
			room.edit("a", client)
		case n < 6:
			if err := b.AppendUpdate(ctx, "ws1", ed, textEdit(t, nil, "content", "b", client), ""); err != nil {
				t.Fatal(err)
			}
		case n == 6:
			svc := []*Service{a, b}[rng.IntN(2)] // a REST update on either replica
			if err := svc.Update(ctx, "ws1", ed, Content{Update: textEdit(t, nil, "content", "r", client)}, ""); err != nil {
				t.Fatal(err)
			}
		case n == 7:
			if err := []*Service{a, b}[rng.IntN(2)].Compact(ctx, "ws1", ed); err != nil {
				t.Fatal(err)
			}
		case n == 8:
			*clock = clock.Add(logDeleteLag)
		default:
			room.catchUp()
			if got, want := room.text(), getData(t, a, ed); got != want {
				t.Fatalf("step %d: room holds %s, the store %s", step, got, want)
			}
		}
	}
	room.catchUp()
	if got, want := room.text(), getData(t, a, ed); got != want {
		t.Fatalf("room holds %s, the store %s", got, want)
	}
}
