package crdt

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
)

// Reads by query (a scan on FerretDB): the entries the previous writer
// logged (no seq), the log of a whole document (get without an editor
// id), and document moves. The hot paths (realtime appends, compaction,
// one editor's read) go by _id (logkeys.go).

var noSeq = bson.E{Key: "seq", Value: bson.D{{Key: "$exists", Value: false}}}

// findLegacyLog returns the editor's entries of the previous writer,
// oldest first. Only editors whose state predates the keyed log have any.
func (s *mongoStore) findLegacyLog(ctx context.Context, ws string, ed Editor) ([]LogEntry, error) {
	return s.findLog(ctx, append(editorFilter(ws, ed), noSeq))
}

func (s *mongoStore) FindDocumentLog(ctx context.Context, ws, org, doc string) ([]LogEntry, error) {
	return s.findLog(ctx, documentFilter(ws, org, doc))
}

func (s *mongoStore) findLog(ctx context.Context, filter bson.D) ([]LogEntry, error) {
	byTime := options.Find().SetSort(bson.D{{Key: "at", Value: 1}, {Key: "seq", Value: 1}, {Key: "_id", Value: 1}})
	cur, err := s.log.Find(ctx, filter, byTime)
	if err != nil {
		return nil, err
	}
	var docs []logDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, err
	}
	entries := make([]LogEntry, len(docs))
	for i, d := range docs {
		entries[i] = d.entry()
	}
	return entries, nil
}

// moveLog re-keys the log of doc to newDoc: keyed entries are copied to
// the new editor keys and then deleted (an _id cannot change), entries of
// the previous writer are updated in place. A re-run finishes a partial
// run (copies already made are duplicates, ignored).
func (s *mongoStore) moveLog(ctx context.Context, ws, org, doc, newDoc string) error {
	defer s.hints.forget()
	var docs []logDoc
	cur, err := s.log.Find(ctx, append(documentFilter(ws, org, doc), bson.E{Key: "seq", Value: bson.D{{Key: "$gt", Value: 0}}}))
	if err != nil {
		return err
	}
	if err := cur.All(ctx, &docs); err != nil {
		return err
	}
	for _, d := range docs {
		old := d.ID
		d.DocumentID = newDoc
		d.ID = logSlot(editorKey(ws, Editor{org, newDoc, d.EditorID}), d.Seq)
		if _, err := s.log.InsertOne(ctx, d); err != nil && !mongodb.IsDuplicateKey(err) {
			return err
		}
		if _, err := s.log.DeleteOne(ctx, bson.D{{Key: "_id", Value: old}}); err != nil {
			return err
		}
	}
	moveTo := bson.D{{Key: "$set", Value: bson.D{{Key: "documentId", Value: newDoc}}}}
	_, err = s.log.UpdateMany(ctx, append(documentFilter(ws, org, doc), noSeq), moveTo)
	return err
}
