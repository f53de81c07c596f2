package annotations

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
)

// newID returns prefix + a random lower-case id ("ann_…", "rxn_…").
func newID(prefix string) string { return prefix + strings.ToLower(rand.Text()) }

// counterID keys the annotation-number counter of one document. Document
// ids are unique per organization, not per workspace, so the organization is
// part of the key.
func counterID(ws, orgID, docID string) string {
	b, _ := json.Marshal([]string{ws, orgID, docID})
	return string(b)
}

// reserveAnnotationNumbers adds n to the document's annotation counter
// (created at n) and returns its new value: the caller owns the n numbers
// up to it. Two first-time upserts may race on the _id; the loser simply
// runs again and finds the document.
func (s *Service) reserveAnnotationNumbers(ctx context.Context, ws, orgID, docID string, n int64) (int64, error) {
	key := counterID(ws, orgID, docID)
	defer s.locks.lock(key)()
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
		err := s.counters.FindOneAndUpdate(ctx, filter, update, opts).Decode(&got)
		if mongodb.IsDuplicateKey(err) && attempt < 3 {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("annotation counter: %w", err)
		}
		return got.Seq, nil
	}
}

// moveCounter carries a document's annotation counter to its new id so
// numbers stay unique after a migration; idempotent.
func (s *Service) moveCounter(ctx context.Context, ws, orgID, oldDocID, newDocID string) error {
	var old struct {
		Seq int64 `bson:"seq"`
	}
	err := s.counters.FindOne(ctx, bson.M{"_id": counterID(ws, orgID, oldDocID)}).Decode(&old)
	if mongodb.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read counter: %w", err)
	}
	_, err = s.counters.UpdateOne(ctx, bson.M{"_id": counterID(ws, orgID, newDocID)}, bson.M{
		"$max":         bson.M{"seq": old.Seq},
		"$setOnInsert": bson.M{"workspaceId": ws, "organizationId": orgID, "documentId": newDocID},
	}, options.UpdateOne().SetUpsert(true))
	if err != nil && !mongodb.IsDuplicateKey(err) {
		return fmt.Errorf("move counter: %w", err)
	}
	if _, err := s.counters.DeleteOne(ctx, bson.M{"_id": counterID(ws, orgID, oldDocID)}); err != nil {
		return fmt.Errorf("drop old counter: %w", err)
	}
	return nil
}
