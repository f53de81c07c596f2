package crdt

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/testenv"
)

// newCommandCountingService is a Service on a fresh database whose
// client's commands counter counts.
func newCommandCountingService(t *testing.T, settings Settings) (*Service, *testenv.CommandCounter) {
	t.Helper()
	db, counter := testenv.CountingMongo(t)
	svc := NewService(db, nil, settings)
	t.Cleanup(svc.Wait)
	if err := svc.EnsureIndexes(t.Context()); err != nil {
		t.Fatal(err)
	}
	return svc, counter
}

// appendRounds appends rounds batches of one edit to each editor, each
// edit by its own client from firstClient on.
func appendRounds(t *testing.T, svc *Service, eds []Editor, rounds int, firstClient uint64) {
	t.Helper()
	ctx := t.Context()
	for round := range rounds {
		var batch []Append
		for i, e := range eds {
			batch = append(batch, Append{Workspace: "ws1", Editor: e, Update: textEdit(t, nil, "content", "y", firstClient+uint64(len(eds)*round+i)), UserID: "u"})
		}
		for i, err := range svc.AppendUpdates(ctx, batch) {
			if err != nil {
				t.Fatalf("round %d item %d: %v", round, i, err)
			}
		}
	}
}

// knownTextEditors adds n text editors holding "x" and appends one edit
// to each, so the service knows them.
func knownTextEditors(t *testing.T, svc *Service, n int) []Editor {
	t.Helper()
	var eds []Editor
	for i := range n {
		e := Editor{"org1", "doc1", fmt.Sprintf("e%d", i)}
		if err := svc.Add(t.Context(), "ws1", e, content("text", `"x"`), ""); err != nil {
			t.Fatal(err)
		}
		eds = append(eds, e)
	}
	appendRounds(t, svc, eds, 1, 100)
	return eds
}

// Compacting frees the log entries the replaced state merged, once they
// are logDeleteLag old, in one delete command, not one per entry; what a
// compaction merges itself stays until the next one.
func TestCompactionDeletesLogInOneCommand(t *testing.T) {
	svc, counter := newCommandCountingService(t, Settings{CompactEntries: 1000})
	clock := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	svc.now = func() time.Time { return clock }
	ctx := t.Context()
	e := Editor{"org1", "doc1", "e1"}
	if err := svc.Add(ctx, "ws1", e, content("text", `"x"`), ""); err != nil {
		t.Fatal(err)
	}
	const n = 40
	appendRounds(t, svc, []Editor{e}, n, 100)
	clock = clock.Add(logDeleteLag)
	compact := func() map[string]int {
		return counter.Count(func() {
			if err := svc.Compact(ctx, "ws1", e); err != nil {
				t.Fatal(err)
			}
		})
	}
	if sent := compact(); sent["delete"] != 0 {
		t.Fatalf("the first compaction sent %v, want no delete (the replaced state merged no entry)", sent)
	}
	appendRounds(t, svc, []Editor{e}, 1, 200)
	if sent := compact(); sent["delete"] != 1 || sent["update"] != 1 {
		t.Fatalf("compacting after %d settled entries sent %v, want one delete and one update (the replaced state cut to a marker; the new state is written once, by its insert)", n, sent)
	}
	appendRounds(t, svc, []Editor{e}, 1, 300)
	if sent := compact(); sent["delete"] != 0 {
		t.Fatalf("compacting right after the replaced state's last update sent %v, want no delete", sent)
	}
	for seq := int64(1); seq <= n+2; seq++ {
		err := svc.store.(*mongoStore).log.FindOne(ctx, bson.D{{Key: "_id", Value: logSlot(editorKey("ws1", e), seq)}}).Err()
		if stored := err == nil; stored != (seq > n) {
			t.Fatalf("log entry %d stored: %v (%v), want only the unsettled entries %d and %d", seq, stored, err, n+1, n+2)
		}
	}
	if got := getData(t, svc, e); len(got) != len(`"x"`)+n+2 {
		t.Fatalf("data %s, want x and %d edits", got, n+2)
	}
}

// TestAppendCommandsPerUpdate reports (and bounds) the store commands a
// steady batch of updates to editors with data costs.
// maxCommandsPerUpdate: a batch of updates to editors this replica
// appended to recently is one insert, with no read-back per entry.
const maxCommandsPerUpdate = 0.1

func TestAppendCommandsPerUpdate(t *testing.T) {
	svc, counter := newCommandCountingService(t, Settings{CompactEntries: 1000})
	eds := knownTextEditors(t, svc, 10)
	const rounds = 5
	sent := counter.Count(func() { appendRounds(t, svc, eds, rounds, 200) })
	total := 0
	for _, n := range sent {
		total += n
	}
	perUpdate := float64(total) / float64(rounds*len(eds))
	t.Logf("%d batches of %d updates sent %v: %.2f commands per update", rounds, len(eds), sent, perUpdate)
	if sent["insert"] != rounds {
		t.Fatalf("%d batches sent %d inserts, want one each", rounds, sent["insert"])
	}
	if perUpdate > maxCommandsPerUpdate {
		t.Fatalf("%.2f store commands per update, want at most %.2f", perUpdate, maxCommandsPerUpdate)
	}
}

// maxCommandsPerUpdateCompacting: with compaction at its default length,
// the compactions of editors whose log this replica wrote read the state
// only, not the log entry by entry (about one find per update).
const maxCommandsPerUpdateCompacting = 0.2

func TestAppendCommandsPerUpdateWithCompaction(t *testing.T) {
	svc, counter := newCommandCountingService(t, Settings{})
	eds := knownTextEditors(t, svc, 10)
	rounds := 2*DefaultCompactEntries + 8
	sent := counter.Count(func() {
		appendRounds(t, svc, eds, rounds, 200)
		svc.Wait()
	})
	total := 0
	for _, n := range sent {
		total += n
	}
	perUpdate := float64(total) / float64(rounds*len(eds))
	t.Logf("%d updates sent %v: %.2f commands per update", rounds*len(eds), sent, perUpdate)
	if sent["insert"] <= rounds {
		t.Fatalf("%d batches sent %d inserts: no compaction stored a state", rounds, sent["insert"])
	}
	if perUpdate > maxCommandsPerUpdateCompacting {
		t.Fatalf("%.2f store commands per update, want at most %.2f", perUpdate, maxCommandsPerUpdateCompacting)
	}
	for _, e := range eds {
		if got := getData(t, svc, e); len(got) != len(`"xy"`)+rounds {
			t.Fatalf("data %s, want x and %d edits", got, rounds+1)
		}
	}
}

// A log with an entry this replica did not append (a REST update, another
// replica) is read from the store by the compaction; nothing is lost
// either way.
func TestCompactionOfALogWithAGap(t *testing.T) {
	svc, _ := newCommandCountingService(t, Settings{CompactEntries: 1000})
	ctx := t.Context()
	e := Editor{"org1", "doc1", "e1"}
	if err := svc.Add(ctx, "ws1", e, content("text", `"x"`), ""); err != nil {
		t.Fatal(err)
	}
	appendRounds(t, svc, []Editor{e}, 3, 100)
	if err := svc.Update(ctx, "ws1", e, Content{Type: "text", Data: []byte(`"xyyyz"`)}, ""); err != nil {
		t.Fatal(err)
	}
	appendRounds(t, svc, []Editor{e}, 3, 200)
	if err := svc.Compact(ctx, "ws1", e); err != nil {
		t.Fatal(err)
	}
	appendRounds(t, svc, []Editor{e}, 2, 300)
	if err := svc.Compact(ctx, "ws1", e); err != nil {
		t.Fatal(err)
	}
	checkCompacted(t, svc, e, 3, 0, `""xyyyyyyyyz`)
	// Entries of this replica, then one of another door after them: the
	// compaction merges this replica's and leaves the other logged.
	appendRounds(t, svc, []Editor{e}, 2, 400)
	data := getData(t, svc, e)
	if err := svc.Update(ctx, "ws1", e, Content{Type: "text", Data: []byte(data[:len(data)-1] + `w"`)}, ""); err != nil {
		t.Fatal(err)
	}
	if err := svc.Compact(ctx, "ws1", e); err != nil {
		t.Fatal(err)
	}
	checkCompacted(t, svc, e, 4, 1, `""wxyyyyyyyyyyz`)
}

// checkCompacted checks the editor's state version, the entries logged
// after it and the letters of its data (the edits of fresh clients land
// in client order).
func checkCompacted(t *testing.T, svc *Service, e Editor, version int64, logged int, letters string) {
	t.Helper()
	st, log, err := svc.store.FindCurrent(t.Context(), "ws1", e)
	if err != nil {
		t.Fatal(err)
	}
	if st.Version != version || len(log) != logged {
		t.Fatalf("state version %d with %d entries after it, want version %d and %d", st.Version, len(log), version, logged)
	}
	got := []byte(getData(t, svc, e))
	slices.Sort(got)
	if string(got) != letters {
		t.Fatalf("data letters %s after the compactions, want %s", got, letters)
	}
}
