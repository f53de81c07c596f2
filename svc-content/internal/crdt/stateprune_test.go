package crdt

import (
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/testenv"
)

// The sweeps of old state versions read them by _id, not by query (a scan
// of every editor's states on FerretDB): after the first one of a replica
// that did not create the editor (by query: it learns the lowest version
// left), none scans. They still delete the markers past their retention
// and no other, keep version 1, and cut a version a failed cut left with
// content (kept as a marker for its retention).
func TestSweepsReadStatesByID(t *testing.T) {
	r := newSweepRig(t)
	if err := r.svc.Add(t.Context(), "ws1", r.ed, content("text", `"x"`), ""); err != nil {
		t.Fatal(err)
	}
	r.version = 1
	r.ms.hints.forget() // as a replica that did not create it
	if scans := r.compactTo(pruneSweepEvery); len(scans) == 0 {
		t.Fatal("the first sweep of a replica that knows no version left sent no query")
	}
	r.noScansTo(2 * pruneSweepEvery)
	leftover := bson.D{{Key: "_id", Value: stateSlot(r.key, 20)}}
	withContent := bson.D{{Key: "$set", Value: bson.D{{Key: "marker", Value: false}, {Key: "update", Value: []byte{0, 0}}}}}
	if _, err := r.ms.states.UpdateOne(t.Context(), leftover, withContent); err != nil {
		t.Fatal(err)
	}
	r.later()
	r.noScansTo(3 * pruneSweepEvery)
	checkStored(t, r.ms, r.key, map[int64]bool{1: true, 2: false, 19: false, 20: true, 21: true, 48: true})
	var cut stateDoc
	if err := r.ms.states.FindOne(t.Context(), leftover).Decode(&cut); err != nil || !cut.Marker || cut.Update != nil {
		t.Fatalf("version 20 with content left by a failed cut: marker %v, %d bytes (%v)", cut.Marker, len(cut.Update), err)
	}
	r.later()
	r.noScansTo(4 * pruneSweepEvery)
	checkStored(t, r.ms, r.key, map[int64]bool{1: true, 20: false, 47: false, 48: true, 63: true, 64: true})
	if got := getData(t, r.svc, r.ed); len(got) != len(`"x"`)+4*pruneSweepEvery-1 {
		t.Fatalf("data %s", got)
	}
}

// The previous writer's versions (ObjectID _id, which no probe finds) are
// swept by query until none is left past version 1; then by _id.
func TestPreviousWritersVersionsAreSweptByQuery(t *testing.T) {
	r := newSweepRig(t)
	ctx := t.Context()
	for v := int64(1); v <= 3; v++ {
		st := stateDoc{
			ID: bson.NewObjectID(), WorkspaceID: "ws1", OrganizationID: r.ed.OrganizationID, DocumentID: r.ed.DocumentID,
			EditorID: r.ed.EditorID, Version: v, Type: "text", ContentKey: "content",
			Update: textEdit(t, nil, "content", "a", 1), LastUpdate: r.clock,
		}
		if _, err := r.ms.states.InsertOne(ctx, st); err != nil {
			t.Fatal(err)
		}
	}
	r.version = 3
	previous := append(editorFilter("ws1", r.ed), bson.E{Key: "version", Value: bson.D{{Key: "$in", Value: bson.A{2, 3}}}})
	if scans := r.compactTo(pruneSweepEvery); len(scans) == 0 {
		t.Fatal("versions the previous writer left were not swept by query")
	}
	if n, err := r.ms.states.CountDocuments(ctx, append(previous, bson.E{Key: "marker", Value: true})); err != nil || n != 2 {
		t.Fatalf("%d of the previous writer's versions 2 and 3 cut to markers (%v), want 2", n, err)
	}
	r.later()
	r.compactTo(2 * pruneSweepEvery)
	if n, err := r.ms.states.CountDocuments(ctx, previous); err != nil || n != 0 {
		t.Fatalf("%d of the previous writer's versions 2 and 3 left past their retention (%v)", n, err)
	}
	r.later()
	r.noScansTo(3 * pruneSweepEvery)
	checkStored(t, r.ms, r.key, map[int64]bool{4: false, 31: false, 32: true, 48: true})
}

// sweepRig compacts one editor version by version under a clock the test
// moves.
type sweepRig struct {
	t       *testing.T
	svc     *Service
	ms      *mongoStore
	counter *testenv.CommandCounter
	clock   time.Time
	ed      Editor
	key     string
	version int64 // the editor's latest version
}

func newSweepRig(t *testing.T) *sweepRig {
	svc, counter := newCommandCountingService(t, Settings{CompactEntries: 1000})
	r := &sweepRig{t: t, svc: svc, ms: svc.store.(*mongoStore), counter: counter, clock: time.Now(), ed: Editor{"org1", "doc1", "e1"}}
	r.key = editorKey("ws1", r.ed)
	svc.now = func() time.Time { return r.clock }
	r.ms.now = svc.now
	return r
}

// compactTo appends and compacts until version through and returns the
// scans it sent.
func (r *sweepRig) compactTo(through int64) []string {
	r.t.Helper()
	return r.counter.Record(func() {
		for ; r.version < through; r.version++ {
			appendRounds(r.t, r.svc, []Editor{r.ed}, 1, uint64(100+r.version))
			if err := r.svc.Compact(r.t.Context(), "ws1", r.ed); err != nil {
				r.t.Fatal(err)
			}
		}
	}).Scans()
}

func (r *sweepRig) noScansTo(through int64) {
	r.t.Helper()
	if scans := r.compactTo(through); len(scans) != 0 {
		r.t.Fatalf("compacting to version %d sent scans %v, want reads by _id only", through, scans)
	}
}

// later moves the clock past markerRetention and reads the latest version
// again (a hint this old is not trusted: the read is a query).
func (r *sweepRig) later() {
	r.t.Helper()
	r.clock = r.clock.Add(markerRetention + time.Minute)
	if _, err := r.ms.FindState(r.t.Context(), "ws1", r.ed); err != nil {
		r.t.Fatal(err)
	}
}

// checkStored checks which versions of the editor key are stored.
func checkStored(t *testing.T, ms *mongoStore, key string, want map[int64]bool) {
	t.Helper()
	for v, stored := range want {
		if has, err := ms.hasState(t.Context(), key, v); err != nil || has != stored {
			t.Errorf("version %d stored: %v, want %v (%v)", v, has, stored, err)
		}
	}
}
