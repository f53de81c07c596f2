package crdt

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sync"
	"time"
)

// The embedded store (FerretDB v1 on SQLite) pushes down to SQLite only a
// filter that is exactly {_id: <string or ObjectID>}; any other filter
// ($in, ranges, other fields) decodes every document of the collection.
// So an editor's log and its state versions are keyed by _id: the key of
// the editor (a hash of its names) and a sequence number, and an editor's
// data is read by probing ids one after another, each an index seek,
// costing the editor's own log and never the collection's.

// editorKey is the _id prefix of an editor's log entries and states.
func editorKey(ws string, ed Editor) string {
	h := sha256.New()
	for _, s := range []string{ws, ed.OrganizationID, ed.DocumentID, ed.EditorID} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// logSlot is the _id of the editor's log entry seq (1, 2, ...).
func logSlot(key string, seq int64) string { return fmt.Sprintf("%s:l%012d", key, seq) }

// stateSlot is the _id of the editor's state version.
func stateSlot(key string, version int64) string { return fmt.Sprintf("%s:v%012d", key, version) }

// editorLocks serialise this replica's appends to one editor, so its log
// sequence numbers are taken in order with one insert in flight: a
// sequence number is never skipped, and a probe's first miss is the end
// of the log.
type editorLocks struct{ shards [64]sync.Mutex }

func (l *editorLocks) shard(key string) int {
	h := 0
	for i := 0; i < len(key) && i < 8; i++ {
		h = h*31 + int(key[i])
	}
	return (h & 0x7fffffff) % len(l.shards)
}

// lock locks the shards of keys in order and returns the unlock.
func (l *editorLocks) lock(keys []string) func() {
	idx := make([]int, 0, len(keys))
	for _, k := range keys {
		idx = append(idx, l.shard(k))
	}
	slices.Sort(idx)
	idx = slices.Compact(idx)
	for _, i := range idx {
		l.shards[i].Lock()
	}
	return func() {
		for _, i := range idx {
			l.shards[i].Unlock()
		}
	}
}

// logHint is what this replica last saw of an editor: its latest state
// version with the log sequence it merged, and the next free sequence.
// Hints only save probes: every use is checked against the store.
type logHint struct {
	version, merged int64
	next            int64     // 0: not known
	at              time.Time // when version was seen latest
	// confirmed is when this replica started inserting entry next-1,
	// found readable; zero when next was probed or guessed.
	confirmed time.Time
	// pruneFrom is the lowest state version above 1 that may be stored
	// (stateprune.go); 0: not known.
	pruneFrom int64
}

// appendTrust is how long after inserting an editor's entry seq a
// replica inserts seq+1 without reading back where it landed. It must
// stay well below logDeleteLag (compact.go).
const appendTrust = 15 * time.Second

// trusted reports whether next follows a readable entry this replica
// inserted recently enough that no compaction can have freed next.
func (h logHint) trusted(now time.Time) bool {
	return !h.confirmed.IsZero() && now.Sub(h.confirmed) < appendTrust
}

// startedLog notes that this replica just created the editor (its
// version 1, which merges no entry, is a unique insert): its log starts at
// slot 1, appended to without a probe and without a read-back (trusted
// for appendTrust, as after an entry of its own). No compaction can have
// freed slot 1 by then: a slot is freed only logDeleteLag after it was
// written. A slot another replica took meanwhile fails the insert on its
// _id, and the append probes as before (4 finds per new editor saved,
// TestFirstAppendsToNewEditorsReadNothing).
func (s *mongoStore) startedLog(key string) {
	at := s.now()
	s.hints.update(key, func(h *logHint) { h.next, h.confirmed = 1, at })
}

// hintTrust is how long a hint's version may be probed from: a version
// seen latest this recently has every later version still in the store
// (versions are deleted only markerRetention after being replaced).
const hintTrust = markerRetention / 2

// fresh reports whether the hint's version may be probed from.
func (h logHint) fresh(now time.Time) bool { return h.version > 0 && now.Sub(h.at) < hintTrust }

// hints remembers logHints per editor key.
type hints struct {
	mu sync.Mutex
	m  map[string]logHint
}

func (h *hints) get(key string) (logHint, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	v, ok := h.m[key]
	return v, ok
}

// update changes the editor's hint.
func (h *hints) update(key string, change func(*logHint)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.m == nil || len(h.m) >= maxCachedEditors {
		h.m = map[string]logHint{}
	}
	v := h.m[key]
	change(&v)
	h.m[key] = v
}

func (h *hints) forget() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.m = nil
}
