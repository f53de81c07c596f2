package crdt

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
)

// sawVersion remembers st as the editor's latest state.
func (s *mongoStore) sawVersion(key string, st State) {
	at := s.now()
	s.hints.update(key, func(h *logHint) {
		if st.Version >= h.version {
			h.version, h.merged, h.at = st.Version, st.LogSeq, at
		}
	})
}

// FindState returns the latest state: probed by _id from the version this
// replica saw last, else found by a query (which scans on FerretDB).
func (s *mongoStore) FindState(ctx context.Context, ws string, ed Editor) (State, error) {
	key := editorKey(ws, ed)
	if h, ok := s.hints.get(key); ok && h.fresh(s.now()) {
		st, found, err := s.probeStates(ctx, key, h.version)
		if err != nil || found {
			return st, err
		}
	}
	return s.queryLatestState(ctx, ws, ed)
}

// queryLatestState finds the latest state by a query and remembers it.
func (s *mongoStore) queryLatestState(ctx context.Context, ws string, ed Editor) (State, error) {
	st, err := s.queryState(ctx, ws, ed)
	if err == nil {
		s.sawVersion(editorKey(ws, ed), st)
	}
	return st, err
}

// FindStateToCompact reads the version this replica saw latest (its own
// last compaction, usually) and does not probe the next one: a newer
// version makes the compaction's insert of its successor fail on that
// slot, which the compaction takes as another one's win, and what it
// deleted before (freeMerged) every later version holds. So the probe
// (one find per compaction) only ever spared a compaction that stores
// nothing. A version cut to a marker: the versions after it are probed;
// gone, or no fresh hint: FindState (without reading that slot again).
func (s *mongoStore) FindStateToCompact(ctx context.Context, ws string, ed Editor) (State, error) {
	key := editorKey(ws, ed)
	h, ok := s.hints.get(key)
	if !ok || !h.fresh(s.now()) {
		return s.FindState(ctx, ws, ed)
	}
	d, err := s.readStateSlot(ctx, key, h.version)
	switch {
	case err != nil:
		return State{}, err
	case d == nil:
		return s.queryLatestState(ctx, ws, ed)
	case !d.Marker:
		st := fromStateDoc(*d)
		s.sawVersion(key, st)
		return st, nil
	}
	st, found, err := s.probeStates(ctx, key, h.version+1)
	if err != nil || found {
		return st, err
	}
	return s.queryLatestState(ctx, ws, ed)
}

// probeStates reads version v and the versions after it until one is
// missing; found is false when v is missing or the last one found is a
// marker (the hint was stale: ask the query).
func (s *mongoStore) probeStates(ctx context.Context, key string, v int64) (State, bool, error) {
	var last *stateDoc
	for ; ; v++ {
		d, err := s.readStateSlot(ctx, key, v)
		if err != nil {
			return State{}, false, err
		} else if d == nil {
			break
		}
		last = d
	}
	if last == nil || last.Marker {
		return State{}, false, nil
	}
	st := fromStateDoc(*last)
	s.sawVersion(key, st)
	return st, true, nil
}

// readStateSlot reads version v of the editor; nil when it is missing.
func (s *mongoStore) readStateSlot(ctx context.Context, key string, v int64) (*stateDoc, error) {
	var d stateDoc
	err := s.states.FindOne(ctx, bson.D{{Key: "_id", Value: stateSlot(key, v)}}).Decode(&d)
	if mongodb.IsNotFound(err) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	return &d, nil
}

// hasState reports whether the editor has version v.
func (s *mongoStore) hasState(ctx context.Context, key string, v int64) (bool, error) {
	err := s.states.FindOne(ctx, bson.D{{Key: "_id", Value: stateSlot(key, v)}},
		options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 1}})).Err()
	if mongodb.IsNotFound(err) {
		return false, nil
	}
	return err == nil, err
}
