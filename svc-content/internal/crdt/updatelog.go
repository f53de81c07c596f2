package crdt

import (
	"context"
	"errors"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// logCollection holds the updates appended to editors since their latest
// state, one document per update. An entry is deleted only after a state
// that contains it was stored (compact.go); until then every read merges
// it, and merging it twice changes nothing (Yjs updates are idempotent).
const logCollection = "crdt_updates"

// logDoc is the stored shape of a LogEntry.
type logDoc struct {
	ID             bson.ObjectID `bson:"_id"`
	WorkspaceID    string        `bson:"workspaceId"`
	OrganizationID string        `bson:"organizationId"`
	DocumentID     string        `bson:"documentId"`
	EditorID       string        `bson:"editorId"`
	Update         []byte        `bson:"update"`
	At             time.Time     `bson:"at"`
	UserID         string        `bson:"userId,omitempty"`
}

func (s *mongoStore) AppendLog(ctx context.Context, entries []WorkspaceEntry) []error {
	errs := make([]error, len(entries))
	if len(entries) == 0 {
		return errs
	}
	docs := make([]any, len(entries))
	for i, e := range entries {
		docs[i] = logDoc{
			ID: bson.NewObjectID(), WorkspaceID: e.Workspace, OrganizationID: e.OrganizationID, DocumentID: e.DocumentID,
			EditorID: e.EditorID, Update: e.Update, At: e.At, UserID: e.UserID,
		}
	}
	_, err := s.log.InsertMany(ctx, docs, options.InsertMany().SetOrdered(false))
	var bulk mongo.BulkWriteException
	switch {
	case err == nil:
	case errors.As(err, &bulk) && len(bulk.WriteErrors) > 0 && bulk.WriteConcernError == nil:
		for _, we := range bulk.WriteErrors {
			if we.Index >= 0 && we.Index < len(errs) {
				errs[we.Index] = we
			}
		}
	default:
		for i := range errs {
			errs[i] = err
		}
	}
	return errs
}

func (s *mongoStore) FindLog(ctx context.Context, ws string, ed Editor) ([]LogEntry, error) {
	return s.findLog(ctx, editorFilter(ws, ed))
}

func (s *mongoStore) FindDocumentLog(ctx context.Context, ws, org, doc string) ([]LogEntry, error) {
	return s.findLog(ctx, documentFilter(ws, org, doc))
}

func (s *mongoStore) findLog(ctx context.Context, filter bson.D) ([]LogEntry, error) {
	cur, err := s.log.Find(ctx, filter, options.Find().SetSort(bson.D{{Key: "at", Value: 1}, {Key: "_id", Value: 1}}))
	if err != nil {
		return nil, err
	}
	var docs []logDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, err
	}
	entries := make([]LogEntry, len(docs))
	for i, d := range docs {
		entries[i] = LogEntry{
			Editor: Editor{d.OrganizationID, d.DocumentID, d.EditorID},
			ID:     d.ID.Hex(), Update: d.Update, At: d.At.UTC(), UserID: d.UserID,
		}
	}
	return entries, nil
}

func (s *mongoStore) DeleteLog(ctx context.Context, ws string, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	oids := make(bson.A, 0, len(ids))
	for _, id := range ids {
		oid, err := bson.ObjectIDFromHex(id)
		if err != nil {
			return err
		}
		oids = append(oids, oid)
	}
	filter := bson.D{{Key: "workspaceId", Value: ws}, {Key: "_id", Value: bson.D{{Key: "$in", Value: oids}}}}
	_, err := s.log.DeleteMany(ctx, filter)
	return err
}
