package crdt

import (
	"context"
	"log/slog"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
)

// The sweep of an editor's old state versions (every pruneSweepEvery
// versions) walks them by _id from the lowest one still stored, as far as
// this replica knows (logHint.pruneFrom): an expired marker is deleted
// and the walk goes on, a missing version is passed, and the walk stops at
// the first version to keep (a marker within its retention; a version
// with content is cut to one first). Markers are replaced in version
// order, so the ones above it are younger (a late cut only delays the
// deletion of those above it, and deleting later is always safe). The
// versions below pruneFrom never come back (a slot is taken again only by
// a compaction that read the version below it, which compactTimeout keeps
// from outliving markerRetention), so the walk costs what it deletes plus
// one find, never the collection: on FerretDB any filter but an exact _id
// decodes every state of every editor.
//
// Where this replica knows no pruneFrom (its first sweep of the editor,
// a previous writer's versions with ObjectID ids), the sweep runs by query
// as before and finds the lowest version left.

// sweepFrom returns the version the editor's sweep by _id starts from.
func (s *mongoStore) sweepFrom(key string, st State) (int64, bool) {
	h, ok := s.hints.get(key)
	if !ok || h.pruneFrom < 2 || h.pruneFrom > st.Version {
		return 0, false // not known, or older than the editor (recreated)
	}
	return h.pruneFrom, true
}

// sawPruned records that no version from 2 to below from is stored.
func (s *mongoStore) sawPruned(key string, from int64) {
	s.hints.update(key, func(h *logHint) { h.pruneFrom = from })
}

// versionDoc is what the sweep reads of a version.
type versionDoc struct {
	Marker     bool       `bson:"marker"`
	ReplacedAt *time.Time `bson:"replacedAt"`
	LastUpdate time.Time  `bson:"lastUpdate"`
}

// expired reports whether a marker's slot may be freed, st being the
// state that triggered the sweep: markerRetention after its replacement,
// or, for a marker of the previous writer (replaced at an unknown time),
// markerRetention before st's last update.
func (d versionDoc) expired(now time.Time, st State) bool {
	if d.ReplacedAt != nil {
		return d.ReplacedAt.Before(now.Add(-markerRetention))
	}
	return d.LastUpdate.Before(st.LastUpdate.Add(-markerRetention))
}

// sweepByID walks the versions from from up to below st's predecessor
// (which PruneStates cut) by _id.
func (s *mongoStore) sweepByID(ctx context.Context, key string, st State, from int64) {
	now := s.now()
	sweepFields := options.FindOne().SetProjection(bson.D{{Key: "marker", Value: 1}, {Key: "replacedAt", Value: 1}, {Key: "lastUpdate", Value: 1}})
	v := from
	defer func() { s.sawPruned(key, v) }()
	for ; v < st.Version-1; v++ {
		id := bson.D{{Key: "_id", Value: stateSlot(key, v)}}
		var d versionDoc
		err := s.states.FindOne(ctx, id, sweepFields).Decode(&d)
		switch {
		case mongodb.IsNotFound(err):
			continue // deleted by another sweep
		case err != nil:
			slog.WarnContext(ctx, "crdt: reading an old state failed", "editorId", st.EditorID, "version", v, "error", err)
			return
		case !d.Marker: // a cut that failed: cut now, kept for its retention
			if _, err := s.states.UpdateOne(ctx, id, toMarker(now)); err != nil {
				slog.WarnContext(ctx, "crdt: cutting an old state to a marker failed", "editorId", st.EditorID, "version", v, "error", err)
			}
			return
		case !d.expired(now, st):
			return
		}
		if _, err := s.states.DeleteOne(ctx, id); err != nil {
			slog.WarnContext(ctx, "crdt: deleting an expired marker failed", "editorId", st.EditorID, "version", v, "error", err)
			return
		}
	}
}

// sweepByQuery cuts every older version with content to a marker and
// deletes the expired markers by query, then learns where the next sweep
// may start by _id: at the lowest version left, unless one of the
// previous writer's versions (an ObjectID _id, not found by _id) is left.
func (s *mongoStore) sweepByQuery(ctx context.Context, ws string, st State) {
	now := s.now()
	editor := editorFilter(ws, st.Editor)
	older := append(editor,
		bson.E{Key: "version", Value: bson.D{{Key: "$lt", Value: st.Version}}},
		bson.E{Key: "marker", Value: bson.D{{Key: "$ne", Value: true}}})
	if _, err := s.states.UpdateMany(ctx, older, toMarker(now)); err != nil {
		slog.WarnContext(ctx, "crdt: cutting old states to markers failed", "editorId", st.EditorID, "error", err)
		return
	}
	expired := append(editor,
		bson.E{Key: "version", Value: bson.D{{Key: "$gt", Value: 1}, {Key: "$lt", Value: st.Version}}},
		bson.E{Key: "marker", Value: true},
		bson.E{Key: "$or", Value: bson.A{
			bson.D{{Key: "replacedAt", Value: bson.D{{Key: "$lt", Value: now.Add(-markerRetention)}}}},
			// markers of the previous writer: replaced at an unknown time
			bson.D{
				{Key: "replacedAt", Value: bson.D{{Key: "$exists", Value: false}}},
				{Key: "lastUpdate", Value: bson.D{{Key: "$lt", Value: st.LastUpdate.Add(-markerRetention)}}},
			},
		}})
	if _, err := s.states.DeleteMany(ctx, expired); err != nil {
		slog.WarnContext(ctx, "crdt: deleting expired markers failed", "editorId", st.EditorID, "error", err)
		return
	}
	if from, ok := s.lowestKept(ctx, ws, st); ok {
		s.sawPruned(editorKey(ws, st.Editor), from)
	}
}

// lowestKept finds the lowest version above 1 and below st's that is
// stored (st's when none is); false when a version of the previous
// writer is among them, or on an error.
func (s *mongoStore) lowestKept(ctx context.Context, ws string, st State) (int64, bool) {
	left := append(editorFilter(ws, st.Editor),
		bson.E{Key: "version", Value: bson.D{{Key: "$gt", Value: 1}, {Key: "$lt", Value: st.Version}}})
	ids := options.Find().SetProjection(bson.D{{Key: "_id", Value: 1}, {Key: "version", Value: 1}})
	cur, err := s.states.Find(ctx, left, ids)
	if err != nil {
		return 0, false
	}
	var docs []struct {
		ID      any   `bson:"_id"`
		Version int64 `bson:"version"`
	}
	if err := cur.All(ctx, &docs); err != nil {
		return 0, false
	}
	lowest := st.Version
	for _, d := range docs {
		if _, keyed := d.ID.(string); !keyed {
			return 0, false
		}
		lowest = min(lowest, d.Version)
	}
	return lowest, true
}
