package store

import (
	"context"
	"encoding/json"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/keylock"
	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/svc-content/internal/annotations"
)

// Numbers keeps one annotation-number counter per document
// (annotations.NumberStore).
type Numbers struct {
	coll  *mongo.Collection
	locks keylock.Stripes // the embedded store's $inc is read-then-write
}

// counterID keys the annotation-number counter of one document. Document
// ids are unique per organization, not per workspace, so the organization is
// part of the key.
func counterID(ws, orgID, docID string) string {
	b, _ := json.Marshal([]string{ws, orgID, docID})
	return string(b)
}

// Reserve adds n to the document's annotation counter
// (created at n) and returns its new value: the caller owns the n numbers
// up to it. Two first-time upserts may race on the _id; the loser simply
// runs again and finds the document.
func (m *Numbers) Reserve(ctx context.Context, sc annotations.Scope, n int64) (int64, error) {
	ws, orgID, docID := sc.WorkspaceID, sc.OrganizationID, sc.DocumentID
	key := counterID(ws, orgID, docID)
	defer m.locks.Lock(key)()
	filter := bson.M{"_id": key}
	update := bson.M{
		"$inc":         bson.M{"seq": n},
		"$setOnInsert": bson.M{"workspaceId": ws, "organizationId": orgID, "documentId": docID},
	}
	opts := options.FindOneAndUpdate().SetUpsert(true).SetReturnDocument(options.After)
	for attempt := 0; ; attempt++ {
		var got struct {
			Seq int64 `bson:"seq"`
		}
		err := m.coll.FindOneAndUpdate(ctx, filter, update, opts).Decode(&got)
		if mongodb.IsDuplicateKey(err) && attempt < 3 {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("annotation counter: %w", err)
		}
		return got.Seq, nil
	}
}

// Move carries a document's annotation counter to its new id so
// numbers stay unique after a migration; idempotent.
func (m *Numbers) Move(ctx context.Context, sc annotations.Scope, newDocID string) error {
	ws, orgID, oldDocID := sc.WorkspaceID, sc.OrganizationID, sc.DocumentID
	var old struct {
		Seq int64 `bson:"seq"`
	}
	err := m.coll.FindOne(ctx, bson.M{"_id": counterID(ws, orgID, oldDocID)}).Decode(&old)
	if mongodb.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read counter: %w", err)
	}
	_, err = m.coll.UpdateOne(ctx, bson.M{"_id": counterID(ws, orgID, newDocID)}, bson.M{
		"$max":         bson.M{"seq": old.Seq},
		"$setOnInsert": bson.M{"workspaceId": ws, "organizationId": orgID, "documentId": newDocID},
	}, options.UpdateOne().SetUpsert(true))
	if err != nil && !mongodb.IsDuplicateKey(err) {
		return fmt.Errorf("move counter: %w", err)
	}
	if _, err := m.coll.DeleteOne(ctx, bson.M{"_id": counterID(ws, orgID, oldDocID)}); err != nil {
		return fmt.Errorf("drop old counter: %w", err)
	}
	return nil
}
