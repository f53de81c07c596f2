package store

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/svc-memory/internal/memory"
)

// Each implements memory.Store: one cursor over the collection (no
// paging, which FerretDB would answer with a scan per page).
func (s *Judgments) Each(ctx context.Context, batch int, fn func([]memory.Stored) error) error {
	cur, err := s.coll.Find(ctx, bson.D{}, options.Find().SetBatchSize(int32(batch)))
	if err != nil {
		return fmt.Errorf("read judgments: %w", err)
	}
	defer cur.Close(ctx)
	page := make([]memory.Stored, 0, batch)
	for cur.Next(ctx) {
		var d judgmentDoc
		if err := cur.Decode(&d); err != nil {
			return fmt.Errorf("read judgments: %w", err)
		}
		page = append(page, d.stored())
		if len(page) == batch {
			if err := fn(page); err != nil {
				return err
			}
			page = make([]memory.Stored, 0, batch)
		}
	}
	if err := cur.Err(); err != nil {
		return fmt.Errorf("read judgments: %w", err)
	}
	if len(page) > 0 {
		return fn(page)
	}
	return nil
}

// CountAll implements memory.Store (the collection's estimate).
func (s *Judgments) CountAll(ctx context.Context) (int64, error) {
	n, err := s.coll.EstimatedDocumentCount(ctx)
	if err != nil {
		return 0, fmt.Errorf("count judgments: %w", err)
	}
	return n, nil
}
