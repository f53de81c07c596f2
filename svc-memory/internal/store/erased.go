package store

import (
	"context"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// erasedColl records the reviewers erased from a workspace (GDPR), so
// activity events from before the erasure that arrive after it do not
// make their judgments again. One document per workspace and user, keyed
// by _id (an exact _id read is what the embedded FerretDB serves from an
// index).
const erasedColl = "erased_reviewers"

type erasedDoc struct {
	ID       string `bson:"_id"`
	ErasedAt int64  `bson:"erasedAt"`
}

func erasedID(ws, userID string) string { return ws + "\x00" + userID }

// MarkReviewersErased implements memory.Store: the latest erasure wins.
func (s *Judgments) MarkReviewersErased(ctx context.Context, ws string, userIDs []string, at int64) error {
	coll := s.db.Collection(erasedColl)
	for _, u := range userIDs {
		_, err := coll.ReplaceOne(ctx, bson.D{{Key: "_id", Value: erasedID(ws, u)}},
			erasedDoc{ID: erasedID(ws, u), ErasedAt: at}, options.Replace().SetUpsert(true))
		if err != nil {
			return fmt.Errorf("mark reviewer erased: %w", err)
		}
	}
	return nil
}

// ReviewerErasedAt implements memory.Store: 0 when never erased.
func (s *Judgments) ReviewerErasedAt(ctx context.Context, ws, userID string) (int64, error) {
	var d erasedDoc
	err := s.db.Collection(erasedColl).FindOne(ctx, bson.D{{Key: "_id", Value: erasedID(ws, userID)}}).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read erased reviewer: %w", err)
	}
	return d.ErasedAt, nil
}
