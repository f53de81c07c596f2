package crdt

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
)

// FindMissing reads the log after since.LogSeq by _id, skipping the slots
// held reports (the reader has them), until a slot it does not hold is
// missing; then the versions after since.Version, without their content.
// A slot is deleted only after a state merging it is stored, and versions
// stay in the store markerRetention after their replacement (since is
// younger than half that), so: when no newer version merged the slot the
// probe stopped at, the probe saw the whole log and the newer versions
// hold nothing the reader lacks; otherwise the latest state is read too
// and the log probed on after it. Reading nothing new costs two finds.
func (s *mongoStore) FindMissing(ctx context.Context, ws string, ed Editor, since Mark, held func(seq int64) bool) (Missing, error) {
	key := editorKey(ws, ed)
	m := Missing{Mark: since}
	m.Mark.At = s.now()
	for {
		entries, end, err := s.probeUnheld(ctx, key, m.Mark.LogSeq+1, held)
		if err != nil {
			return Missing{}, err
		}
		m.Log = append(m.Log, entries...)
		m.Mark.LogSeq = end - 1
		latest, merged, err := s.newerVersions(ctx, key, m.Mark.Version)
		if err != nil {
			return Missing{}, err
		}
		if latest == 0 {
			return m, nil
		}
		if merged < end {
			m.Mark.Version = latest
			return m, nil
		}
		st, err := s.stateFrom(ctx, ws, ed, key, latest)
		if err != nil {
			return Missing{}, err
		}
		m.State, m.Log = &st, unmerged(m.Log, st)
		m.Mark.Version, m.Mark.LogSeq = st.Version, max(m.Mark.LogSeq, st.LogSeq)
	}
}

// probeUnheld reads the editor's entries from seq from on, skipping the
// held ones, until one that is not held is missing (end).
func (s *mongoStore) probeUnheld(ctx context.Context, key string, from int64, held func(int64) bool) (entries []LogEntry, end int64, err error) {
	for seq := from; ; seq++ {
		if held(seq) {
			continue
		}
		var d logDoc
		err := s.log.FindOne(ctx, bson.D{{Key: "_id", Value: logSlot(key, seq)}}).Decode(&d)
		if mongodb.IsNotFound(err) {
			return entries, seq, nil
		} else if err != nil {
			return nil, 0, err
		}
		entries = append(entries, d.entry())
	}
}

// newerVersions probes the versions after v without their content:
// latest is the last one found (0: none) and merged the highest log
// sequence any of them merged.
func (s *mongoStore) newerVersions(ctx context.Context, key string, v int64) (latest, merged int64, err error) {
	logSeqOnly := options.FindOne().SetProjection(bson.D{{Key: "logSeq", Value: 1}})
	for v++; ; v++ {
		var d stateDoc
		err := s.states.FindOne(ctx, bson.D{{Key: "_id", Value: stateSlot(key, v)}}, logSeqOnly).Decode(&d)
		if mongodb.IsNotFound(err) {
			return latest, merged, nil
		} else if err != nil {
			return 0, 0, err
		}
		latest, merged = v, max(merged, d.LogSeq)
	}
}
