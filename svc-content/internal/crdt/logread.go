package crdt

import "context"

// probeLog reads the editor's entries from seq from on until one is
// missing (next).
func (s *mongoStore) probeLog(ctx context.Context, key string, from int64) (entries []LogEntry, next int64, err error) {
	return s.probeUnheld(ctx, key, from, func(int64) bool { return false })
}

// FindCurrent reads the latest state, then the log after it by probing,
// then checks that no newer state was stored meanwhile (a compaction
// stores its state before it deletes what it merged, so the entries read
// plus the state are the whole document); if one was, it goes on from it.
func (s *mongoStore) FindCurrent(ctx context.Context, ws string, ed Editor) (State, []LogEntry, error) {
	key := editorKey(ws, ed)
	st, err := s.FindState(ctx, ws, ed)
	if err != nil {
		return State{}, nil, err
	}
	var log []LogEntry
	if !st.keyedLog {
		if log, err = s.findLegacyLog(ctx, ws, ed); err != nil {
			return State{}, nil, err
		}
	}
	from := st.LogSeq + 1
	for {
		entries, next, err := s.probeLog(ctx, key, from)
		if err != nil {
			return State{}, nil, err
		}
		log = append(log, entries...)
		newer, err := s.hasState(ctx, key, st.Version+1)
		if err != nil {
			return State{}, nil, err
		} else if !newer {
			return st, log, nil
		}
		if st, err = s.stateFrom(ctx, ws, ed, key, st.Version+1); err != nil {
			return State{}, nil, err
		}
		log = unmerged(log, st)
		from = max(next, st.LogSeq+1)
	}
}

// stateFrom is the latest state, probed from version v, which exists.
func (s *mongoStore) stateFrom(ctx context.Context, ws string, ed Editor, key string, v int64) (State, error) {
	st, found, err := s.probeStates(ctx, key, v)
	if err != nil || found {
		return st, err
	}
	return s.queryState(ctx, ws, ed)
}

// unmerged keeps the entries st does not hold.
func unmerged(log []LogEntry, st State) []LogEntry {
	kept := log[:0]
	for _, e := range log {
		if (e.Seq == 0 && !st.keyedLog) || e.Seq > st.LogSeq {
			kept = append(kept, e)
		}
	}
	return kept
}
