package crdt

import (
	"strings"
	"testing"
)

func TestCompactionWaitsForTheLogToReachTheStatesSize(t *testing.T) {
	t.Parallel()
	s := Settings{CompactEntries: 64, CompactBytes: 1 << 20}
	for _, tc := range []struct {
		name                 string
		entries              int
		logBytes, stateBytes int64
		want                 bool
	}{
		{"short log", 63, 10_000, 100, false},
		{"small state", 64, 9_000, 8_000, true},
		{"log under the state's size", 64, 9_000, 1 << 20, false},
		{"log as large as the state", 200, 1 << 19, 1 << 19, true},
		{"entries at the cap", 64 * compactEntriesCap, 30_000, 1 << 20, true},
		{"entries under the cap", 64*compactEntriesCap - 1, 30_000, 1 << 20, false},
		{"one entry of CompactBytes", 1, 1 << 20, 5 << 20, true},
	} {
		if got := s.wantsCompaction(tc.entries, tc.logBytes, tc.stateBytes); got != tc.want {
			t.Errorf("%s: %d entries, %d log bytes, %d state bytes: compact %v, want %v", tc.name, tc.entries, tc.logBytes, tc.stateBytes, got, tc.want)
		}
	}
}

// A large document is not rewritten every CompactEntries small edits:
// its log is compacted once it reaches the state's size or
// compactEntriesCap times CompactEntries entries, a small document's at
// CompactEntries as before.
func TestLargeDocumentIsCompactedLessOften(t *testing.T) {
	t.Parallel()
	const every = 8
	svc, _ := newCommandCountingService(t, Settings{CompactEntries: every})
	ctx := t.Context()
	small, large := Editor{"org1", "doc1", "small"}, Editor{"org1", "doc1", "large"}
	if err := svc.Add(ctx, "ws1", small, content("text", `"x"`), ""); err != nil {
		t.Fatal(err)
	}
	if err := svc.Add(ctx, "ws1", large, content("text", `"`+strings.Repeat("x", 64<<10)+`"`), ""); err != nil {
		t.Fatal(err)
	}
	version := func(e Editor) int64 {
		t.Helper()
		svc.Wait()
		st, err := svc.store.FindState(ctx, "ws1", e)
		if err != nil {
			t.Fatal(err)
		}
		return st.Version
	}
	appendRounds(t, svc, []Editor{small, large}, 1, 100) // the service learns both sizes
	appendRounds(t, svc, []Editor{small, large}, every, 200)
	if v := version(small); v != 2 {
		t.Fatalf("small document after %d edits: state version %d, want 2 (compacted)", every+1, v)
	}
	if v := version(large); v != 1 {
		t.Fatalf("64 KiB document after %d edits: state version %d, want 1 (its log is far under its size)", every+1, v)
	}
	appendRounds(t, svc, []Editor{large}, every*compactEntriesCap, 300)
	if v := version(large); v != 2 {
		t.Fatalf("64 KiB document after %d edits: state version %d, want 2 (compacted at the cap)", every*(compactEntriesCap+1)+1, v)
	}
	if got := getData(t, svc, large); len(got) != 64<<10+2+every*(compactEntriesCap+1)+1 {
		t.Fatalf("large document holds %d bytes of data, want every edit", len(got))
	}
}
