package crdt

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
	yjs "github.com/opencollab/backend/svc-content/internal/crdt/legacyyjs"
)

// collection holds the versions of every editor's data.
//
// Each version is its own document, unique on (workspace, organization,
// document, editor, version), because inserting is the one write that is
// atomic on FerretDB v1 too (it runs a conditional update as a read and
// then a write, so two updates could both pass a version check). An
// update reads the latest version N and inserts N+1: of two concurrent
// updates exactly one inserts N+1, the other retries on top of it.
//
// After an insert the older versions are cut down to markers (no
// content), so an editor at rest costs its latest version plus small
// markers. A marker keeps its slot taken: an update that read an old
// latest version and inserts late still hits the unique index. Markers
// are deleted only once they are markerRetention old, which no update
// can be: Update re-reads when its read is older than maxReadAge. Version
// 1 stays a marker for good, so a second add still fails on the index.
// Reads take the highest version, so a cut that did not happen costs
// space, never correctness.
const collection = "crdt_editors"

// markerRetention is how long a replaced version keeps its slot. It must
// stay well above maxReadAge plus the clock skew between replicas.
const markerRetention = 10 * time.Minute

type mongoStore struct{ coll *mongo.Collection }

func newMongoStore(db *mongo.Database) *mongoStore {
	return &mongoStore{coll: db.Collection(collection)}
}

// recordDoc is the stored shape of a Record.
type recordDoc struct {
	WorkspaceID    string    `bson:"workspaceId"`
	OrganizationID string    `bson:"organizationId"`
	DocumentID     string    `bson:"documentId"`
	EditorID       string    `bson:"editorId"`
	Version        int64     `bson:"version"`
	Marker         bool      `bson:"marker,omitempty"` // version 1 once replaced: no content
	WriteID        string    `bson:"writeId"`          // random per insert: withdraws only its own
	Type           string    `bson:"type"`
	ContentKey     string    `bson:"contentKey"`
	Data           string    `bson:"data"` // JSON text: map keys need not be valid field names
	Update         []byte    `bson:"update"`
	Yjs            yjsDoc    `bson:"yjs"`
	LastUpdate     time.Time `bson:"lastUpdate"`
	LastUpdatedBy  *string   `bson:"lastUpdatedBy"`
	SessionID      *string   `bson:"sessionId"`
}

// yjsDoc is the stored yjs.Doc (Key and Kind are the record's contentKey
// and type).
type yjsDoc struct {
	ClientID     int64      `bson:"clientId"`
	Clock        int64      `bson:"clock"`
	Start        int64      `bson:"start"`
	History      []byte     `bson:"history"`
	HistoryCount int64      `bson:"historyCount"`
	Current      []byte     `bson:"current"`
	CurrentCount int64      `bson:"currentCount"`
	LastTop      *int64     `bson:"lastTop"`
	Keys         []keyClock `bson:"keys"` // a list: map keys may be any string
}

type keyClock struct {
	Key   string `bson:"k"`
	Clock int64  `bson:"c"`
}

func (s *mongoStore) EnsureIndexes(ctx context.Context) error {
	return mongodb.EnsureIndexes(ctx, s.coll, mongo.IndexModel{
		Keys: bson.D{
			{Key: "workspaceId", Value: 1}, {Key: "organizationId", Value: 1}, {Key: "documentId", Value: 1},
			{Key: "editorId", Value: 1}, {Key: "version", Value: 1},
		},
		Options: options.Index().SetUnique(true).SetName("editor_version_unique"),
	})
}

func documentFilter(ws, org, doc string) bson.D {
	return bson.D{{Key: "workspaceId", Value: ws}, {Key: "organizationId", Value: org}, {Key: "documentId", Value: doc}}
}

func editorFilter(ws, org, doc, editor string) bson.D {
	return append(documentFilter(ws, org, doc), bson.E{Key: "editorId", Value: editor})
}

func (s *mongoStore) Insert(ctx context.Context, ws string, r Record) error {
	_, err := s.coll.InsertOne(ctx, toDoc(ws, r))
	if mongodb.IsDuplicateKey(err) {
		return ErrExists
	}
	return err
}

func (s *mongoStore) Find(ctx context.Context, ws, org, doc, editor string) (Record, error) {
	var d recordDoc
	latest := options.FindOne().SetSort(bson.D{{Key: "version", Value: -1}})
	err := s.coll.FindOne(ctx, editorFilter(ws, org, doc, editor), latest).Decode(&d)
	if mongodb.IsNotFound(err) {
		return Record{}, ErrNotFound
	} else if err != nil {
		return Record{}, err
	}
	return fromDoc(d), nil
}

func (s *mongoStore) FindDocument(ctx context.Context, ws, org, doc string) ([]Record, error) {
	filter := append(documentFilter(ws, org, doc), bson.E{Key: "marker", Value: bson.D{{Key: "$ne", Value: true}}})
	sorted := options.Find().SetSort(bson.D{{Key: "editorId", Value: 1}, {Key: "version", Value: -1}})
	cur, err := s.coll.Find(ctx, filter, sorted)
	if err != nil {
		return nil, err
	}
	var docs []recordDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, err
	}
	recs := make([]Record, 0, len(docs))
	for _, d := range docs {
		if n := len(recs); n > 0 && recs[n-1].EditorID == d.EditorID {
			continue // an older version not pruned yet
		}
		recs = append(recs, fromDoc(d))
	}
	return recs, nil
}

func (s *mongoStore) AppendVersion(ctx context.Context, ws string, r Record) error {
	_, err := s.coll.InsertOne(ctx, toDoc(ws, r))
	if mongodb.IsDuplicateKey(err) {
		return ErrConflict
	}
	if err != nil {
		return err
	}
	s.prune(ctx, ws, r)
	return nil
}

// prune cuts the versions below r down to markers and deletes the markers
// past their retention (but version 1's). It is best effort: what stays is
// ignored by reads and pruned by the next update.
func (s *mongoStore) prune(ctx context.Context, ws string, r Record) {
	editor := editorFilter(ws, r.OrganizationID, r.DocumentID, r.EditorID)
	older := append(editor,
		bson.E{Key: "version", Value: bson.D{{Key: "$lt", Value: r.Version}}},
		bson.E{Key: "marker", Value: bson.D{{Key: "$ne", Value: true}}})
	toMarker := bson.D{
		{Key: "$set", Value: bson.D{{Key: "marker", Value: true}}},
		{Key: "$unset", Value: bson.D{{Key: "data", Value: ""}, {Key: "update", Value: ""}, {Key: "yjs", Value: ""}}},
	}
	if _, err := s.coll.UpdateMany(ctx, older, toMarker); err != nil {
		slog.WarnContext(ctx, "crdt: cutting old versions to markers failed", "editorId", r.EditorID, "error", err)
	}
	expired := append(editor,
		bson.E{Key: "version", Value: bson.D{{Key: "$gt", Value: 1}, {Key: "$lt", Value: r.Version}}},
		bson.E{Key: "marker", Value: true},
		bson.E{Key: "lastUpdate", Value: bson.D{{Key: "$lt", Value: r.LastUpdate.Add(-markerRetention)}}})
	if _, err := s.coll.DeleteMany(ctx, expired); err != nil {
		slog.WarnContext(ctx, "crdt: deleting expired markers failed", "editorId", r.EditorID, "error", err)
	}
}

func (s *mongoStore) MoveDocument(ctx context.Context, ws, org, doc, newDoc string) (int64, error) {
	res, err := s.coll.UpdateMany(ctx, documentFilter(ws, org, doc), bson.D{{Key: "$set", Value: bson.D{{Key: "documentId", Value: newDoc}}}})
	if mongodb.IsDuplicateKey(err) {
		return 0, fmt.Errorf("crdt: document %s already has data for an editor id of %s: %w", newDoc, doc, err)
	}
	if err != nil {
		return 0, err
	}
	return res.ModifiedCount, nil
}

func (s *mongoStore) HasDocument(ctx context.Context, ws, org, doc string) (bool, error) {
	err := s.coll.FindOne(ctx, documentFilter(ws, org, doc), options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 1}})).Err()
	if errors.Is(err, mongo.ErrNoDocuments) {
		return false, nil
	}
	return err == nil, err
}

func toDoc(ws string, r Record) recordDoc {
	d := recordDoc{
		WriteID:     rand.Text(),
		WorkspaceID: ws, OrganizationID: r.OrganizationID, DocumentID: r.DocumentID, EditorID: r.EditorID,
		Type: r.Type, ContentKey: r.ContentKey, Data: string(r.Data), Update: r.Update,
		Version: r.Version, LastUpdate: r.LastUpdate, LastUpdatedBy: optional(r.LastUpdatedBy),
		Yjs: yjsDoc{
			ClientID: int64(r.Doc.ClientID), Clock: int64(r.Doc.Clock), Start: int64(r.Doc.Start),
			History: r.Doc.History, HistoryCount: int64(r.Doc.HistoryCount),
			Current: r.Doc.Current, CurrentCount: int64(r.Doc.CurrentCount),
		},
	}
	if r.Doc.HasLastTop {
		last := int64(r.Doc.LastTop)
		d.Yjs.LastTop = &last
	}
	for k, c := range r.Doc.KeyClocks {
		d.Yjs.Keys = append(d.Yjs.Keys, keyClock{Key: k, Clock: int64(c)})
	}
	sort.Slice(d.Yjs.Keys, func(i, j int) bool { return d.Yjs.Keys[i].Key < d.Yjs.Keys[j].Key })
	return d
}

func fromDoc(d recordDoc) Record {
	r := Record{
		OrganizationID: d.OrganizationID, DocumentID: d.DocumentID, EditorID: d.EditorID,
		Type: d.Type, ContentKey: d.ContentKey, Data: []byte(d.Data), Update: d.Update,
		Version: d.Version, LastUpdate: d.LastUpdate.UTC(),
		Doc: yjs.Doc{
			ClientID: uint32(d.Yjs.ClientID), Key: d.ContentKey, Kind: yjs.Kind(d.Type),
			Clock: uint64(d.Yjs.Clock), Start: uint64(d.Yjs.Start),
			History: d.Yjs.History, HistoryCount: uint64(d.Yjs.HistoryCount),
			Current: d.Yjs.Current, CurrentCount: uint64(d.Yjs.CurrentCount),
		},
	}
	if d.LastUpdatedBy != nil {
		r.LastUpdatedBy = *d.LastUpdatedBy
	}
	if d.Yjs.LastTop != nil {
		r.Doc.LastTop, r.Doc.HasLastTop = uint64(*d.Yjs.LastTop), true
	}
	if len(d.Yjs.Keys) > 0 {
		r.Doc.KeyClocks = make(map[string]uint64, len(d.Yjs.Keys))
		for _, kc := range d.Yjs.Keys {
			r.Doc.KeyClocks[kc.Key] = uint64(kc.Clock)
		}
	}
	return r
}
