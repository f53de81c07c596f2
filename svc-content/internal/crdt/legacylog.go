package crdt

import (
	"bytes"
	"context"
	"fmt"

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

// MoveDocument re-keys doc's states and log to newDoc. Keyed states are
// copied to their new _id and then deleted (a re-run takes a copy already
// made as its own); the previous writer's states are updated in place.
// Data newDoc already has for an editor id of doc is a conflict.
func (s *mongoStore) MoveDocument(ctx context.Context, ws, org, doc, newDoc string) (int64, error) {
	defer s.hints.forget()
	moved, err := s.moveKeyedStates(ctx, ws, org, doc, newDoc)
	if err != nil {
		return 0, err
	}
	moveTo := bson.D{{Key: "$set", Value: bson.D{{Key: "documentId", Value: newDoc}}}}
	unkeyed := bson.E{Key: "keyedLog", Value: bson.D{{Key: "$exists", Value: false}}}
	res, err := s.states.UpdateMany(ctx, append(documentFilter(ws, org, doc), unkeyed), moveTo)
	if mongodb.IsDuplicateKey(err) {
		return 0, moveConflict(doc, newDoc, err)
	} else if err != nil {
		return 0, err
	}
	if err := s.moveLog(ctx, ws, org, doc, newDoc); err != nil {
		return 0, err
	}
	return moved + res.ModifiedCount, nil
}

func moveConflict(doc, newDoc string, err error) error {
	return fmt.Errorf("crdt: document %s already has data for an editor id of %s: %w", newDoc, doc, err)
}

func (s *mongoStore) moveKeyedStates(ctx context.Context, ws, org, doc, newDoc string) (int64, error) {
	cur, err := s.states.Find(ctx, append(documentFilter(ws, org, doc), bson.E{Key: "keyedLog", Value: true}))
	if err != nil {
		return 0, err
	}
	var docs []stateDoc
	if err := cur.All(ctx, &docs); err != nil {
		return 0, err
	}
	for _, d := range docs {
		old := d.ID
		d.DocumentID = newDoc
		d.ID = stateSlot(editorKey(ws, Editor{org, newDoc, d.EditorID}), d.Version)
		if _, err := s.states.InsertOne(ctx, d); mongodb.IsDuplicateKey(err) {
			var there stateDoc
			if s.states.FindOne(ctx, bson.D{{Key: "_id", Value: d.ID}}).Decode(&there) != nil || !sameState(there, d) {
				return 0, moveConflict(doc, newDoc, err)
			} // else: copied by a run that stopped before deleting
		} else if err != nil {
			return 0, err
		}
		if _, err := s.states.DeleteOne(ctx, bson.D{{Key: "_id", Value: old}}); err != nil {
			return 0, err
		}
	}
	return int64(len(docs)), nil
}

func sameState(a, b stateDoc) bool {
	return a.DocumentID == b.DocumentID && a.EditorID == b.EditorID && a.Version == b.Version &&
		a.LastUpdate.Equal(b.LastUpdate) && bytes.Equal(a.Update, b.Update)
}

// moveLog re-keys the log of doc to newDoc: keyed entries are copied to
// the new editor keys and then deleted (an _id cannot change), entries of
// the previous writer are updated in place. A re-run finishes a partial
// run (copies already made are duplicates, ignored).
func (s *mongoStore) moveLog(ctx context.Context, ws, org, doc, newDoc string) error {
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
