package crdt

import (
	"context"
	"errors"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
)

// stateCollection holds the merged states of every editor.
//
// Each state version is its own document, unique on (workspace,
// organization, document, editor, version), because inserting is the one
// write that is atomic on FerretDB v1 too (it runs a conditional update as
// a read and then a write). Compaction reads the latest version N and
// inserts N+1: of two concurrent compactions exactly one inserts it, and
// only the winner drops the log entries it merged.
//
// After an insert the older versions are cut down to markers (no
// content). A marker keeps its slot taken: a compaction that read an old
// version and inserts late still hits the unique index, so it never
// drops entries a newer state lacks. Markers are deleted only once they
// are markerRetention old, which no compaction can be (compactTimeout).
// Version 1 stays a marker for good, so a second add still fails on the
// index. The documents the previous writer stored (one full version per
// update, fields update and data) have this shape and load as they are.
const stateCollection = "crdt_editors"

// markerRetention is how long a replaced version keeps its slot, counted
// from its replacement (replacedAt). It must
// stay well above compactTimeout plus the clock skew between replicas.
const markerRetention = 10 * time.Minute

// pruneSweepEvery: every this many versions, pruning sweeps the older
// versions (markers past retention, contents a failed prune left).
const pruneSweepEvery = 16

type mongoStore struct {
	states *mongo.Collection
	log    *mongo.Collection
	now    func() time.Time
	locks  editorLocks
	hints  hints
}

func newMongoStore(db *mongo.Database) *mongoStore {
	return &mongoStore{states: db.Collection(stateCollection), log: db.Collection(logCollection), now: time.Now}
}

// stateDoc is the stored shape of a State.
type stateDoc struct {
	ID             any     `bson:"_id,omitempty"` // stateSlot; ObjectID in records of the previous writer
	WorkspaceID    string  `bson:"workspaceId"`
	OrganizationID string  `bson:"organizationId"`
	DocumentID     string  `bson:"documentId"`
	EditorID       string  `bson:"editorId"`
	Version        int64   `bson:"version"`
	Marker         bool    `bson:"marker,omitempty"` // replaced: no content
	Type           string  `bson:"type"`
	ContentKey     string  `bson:"contentKey"`
	ProseMirror    bool    `bson:"prosemirror,omitempty"`
	Data           *string `bson:"data,omitempty"` // JSON text: map keys need not be valid field names
	// Rendered marks data read from update by this writer; the previous
	// writer kept data as posted, which get no longer returns.
	Rendered      bool      `bson:"rendered,omitempty"`
	Update        []byte    `bson:"update"`
	Size          int64     `bson:"size"`
	LastUpdate    time.Time `bson:"lastUpdate"`
	LastUpdatedBy *string   `bson:"lastUpdatedBy"`
	SessionID     *string   `bson:"sessionId"`
	// LogSeq is the highest log sequence merged into this state; KeyedLog
	// marks states whose editor's log is keyed (logkeys.go): a state
	// without it may have entries of the previous writer's log.
	LogSeq   int64 `bson:"logSeq,omitempty"`
	KeyedLog bool  `bson:"keyedLog,omitempty"`
	// LogFrom is the lowest log sequence that may still be stored (those
	// below it are deleted): a compaction deletes from there up to LogSeq,
	// so it also deletes what a crashed compaction left.
	LogFrom int64 `bson:"logFrom,omitempty"`
}

func documentFilter(ws, org, doc string) bson.D {
	return bson.D{{Key: "workspaceId", Value: ws}, {Key: "organizationId", Value: org}, {Key: "documentId", Value: doc}}
}

func editorFilter(ws string, ed Editor) bson.D {
	return append(documentFilter(ws, ed.OrganizationID, ed.DocumentID), bson.E{Key: "editorId", Value: ed.EditorID})
}

func (s *mongoStore) InsertState(ctx context.Context, ws string, st State) error {
	key := editorKey(ws, st.Editor)
	d := toStateDoc(ws, st)
	d.ID, d.KeyedLog = stateSlot(key, st.Version), true
	_, err := s.states.InsertOne(ctx, d)
	if mongodb.IsDuplicateKey(err) {
		return ErrExists
	} else if err != nil {
		return err
	}
	s.sawVersion(key, st)
	if st.Version == 1 {
		s.sawPruned(key, 2) // a new editor: nothing to sweep below
		s.startedLog(key)
	}
	return nil
}

func (s *mongoStore) queryState(ctx context.Context, ws string, ed Editor) (State, error) {
	var d stateDoc
	latest := options.FindOne().SetSort(bson.D{{Key: "version", Value: -1}})
	err := s.states.FindOne(ctx, editorFilter(ws, ed), latest).Decode(&d)
	if mongodb.IsNotFound(err) {
		return State{}, ErrNotFound
	} else if err != nil {
		return State{}, err
	}
	return fromStateDoc(d), nil
}

func (s *mongoStore) FindDocumentStates(ctx context.Context, ws, org, doc string) ([]State, error) {
	filter := append(documentFilter(ws, org, doc), bson.E{Key: "marker", Value: bson.D{{Key: "$ne", Value: true}}})
	sorted := options.Find().SetSort(bson.D{{Key: "editorId", Value: 1}, {Key: "version", Value: -1}})
	cur, err := s.states.Find(ctx, filter, sorted)
	if err != nil {
		return nil, err
	}
	var docs []stateDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, err
	}
	states := make([]State, 0, len(docs))
	for _, d := range docs {
		if n := len(states); n > 0 && states[n-1].EditorID == d.EditorID {
			continue // an older version not pruned yet
		}
		states = append(states, fromStateDoc(d))
	}
	return states, nil
}

// PruneStates cuts the versions below st down to markers and deletes the
// markers past their retention (but version 1's). What stays is ignored
// by reads and pruned by a later compaction.
func (s *mongoStore) PruneStates(ctx context.Context, ws string, st State) {
	// Usually only the version just replaced holds content: cut it by _id
	// (an index seek on FerretDB), and sweep the older ones every
	// pruneSweepEvery versions (stateprune.go), or at once when it was
	// not keyed (a state of the previous writer).
	key := editorKey(ws, st.Editor)
	prev := bson.D{{Key: "_id", Value: stateSlot(key, st.Version-1)}}
	res, err := s.states.UpdateOne(ctx, prev, toMarker(s.now()))
	keyed := err == nil && res.MatchedCount == 1
	if keyed && st.Version%pruneSweepEvery != 0 {
		return
	}
	if from, ok := s.sweepFrom(key, st); keyed && ok {
		s.sweepByID(ctx, key, st, from)
		return
	}
	s.sweepByQuery(ctx, ws, st)
}

// toMarker is the update that cuts a version replaced at now to a marker.
func toMarker(now time.Time) bson.D {
	return bson.D{
		{Key: "$set", Value: bson.D{{Key: "marker", Value: true}, {Key: "replacedAt", Value: now}}},
		{Key: "$unset", Value: bson.D{{Key: "data", Value: ""}, {Key: "update", Value: ""}, {Key: "yjs", Value: ""}}},
	}
}

func (s *mongoStore) StateSizes(ctx context.Context, eds []WorkspaceEditor) (map[WorkspaceEditor]int64, error) {
	if len(eds) == 0 {
		return nil, nil
	}
	any := make(bson.A, len(eds))
	for i, e := range eds {
		any[i] = editorFilter(e.Workspace, e.Editor)
	}
	filter := bson.D{{Key: "$or", Value: any}, {Key: "marker", Value: bson.D{{Key: "$ne", Value: true}}}}
	keys := options.Find().SetProjection(bson.D{
		{Key: "workspaceId", Value: 1}, {Key: "organizationId", Value: 1}, {Key: "documentId", Value: 1},
		{Key: "editorId", Value: 1}, {Key: "size", Value: 1},
	})
	cur, err := s.states.Find(ctx, filter, keys)
	if err != nil {
		return nil, err
	}
	var docs []stateDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, err
	}
	sizes := make(map[WorkspaceEditor]int64, len(docs))
	for _, d := range docs {
		k := WorkspaceEditor{Workspace: d.WorkspaceID, Editor: Editor{d.OrganizationID, d.DocumentID, d.EditorID}}
		sizes[k] = max(sizes[k], d.Size)
	}
	return sizes, nil
}

func (s *mongoStore) HasDocument(ctx context.Context, ws, org, doc string) (bool, error) {
	err := s.states.FindOne(ctx, documentFilter(ws, org, doc), options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 1}})).Err()
	if errors.Is(err, mongo.ErrNoDocuments) {
		return false, nil
	}
	return err == nil, err
}

func toStateDoc(ws string, st State) stateDoc {
	d := stateDoc{
		WorkspaceID: ws, OrganizationID: st.OrganizationID, DocumentID: st.DocumentID, EditorID: st.EditorID,
		Type: st.Type, ContentKey: st.ContentKey, ProseMirror: st.ProseMirror, Update: st.Update,
		Size: int64(len(st.Update)), Version: st.Version, LogSeq: st.LogSeq, LogFrom: st.logFrom, LastUpdate: st.LastUpdate, LastUpdatedBy: optional(st.LastUpdatedBy),
	}
	if st.Data != nil {
		data := string(st.Data)
		d.Data, d.Rendered = &data, true
	}
	return d
}

func fromStateDoc(d stateDoc) State {
	st := State{
		Editor: Editor{d.OrganizationID, d.DocumentID, d.EditorID},
		Type:   d.Type, ContentKey: d.ContentKey, ProseMirror: d.ProseMirror, Update: d.Update,
		Version: d.Version, LastUpdate: d.LastUpdate.UTC(), LogSeq: d.LogSeq, keyedLog: d.KeyedLog, logFrom: max(d.LogFrom, 1),
	}
	if d.Data != nil && d.Rendered {
		st.Data = []byte(*d.Data)
	}
	if d.LastUpdatedBy != nil {
		st.LastUpdatedBy = *d.LastUpdatedBy
	}
	return st
}
