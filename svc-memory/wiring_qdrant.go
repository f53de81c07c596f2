package svcmemory

import (
	"context"
	"fmt"

	"github.com/opencollab/backend/svc-memory/internal/vector"
)

// openQdrant opens the two Qdrant collections of a model,
// <collection>_review_<model> and <collection>_content_<model>.
func openQdrant(ctx context.Context, cfg Config, tag string, dim int) (*indexes, error) {
	open := func(suffix string) (*vector.Qdrant, error) {
		return vector.NewQdrant(ctx, vector.QdrantOptions{
			Addr: cfg.QdrantAddr, Collection: qdrantCollection(cfg, suffix, tag), Dim: dim, APIKey: cfg.QdrantAPIKey,
		})
	}
	review, err := open("_review")
	if err != nil {
		return nil, fmt.Errorf("qdrant review collection: %w", err)
	}
	content, err := open("_content")
	if err != nil {
		_ = review.Close()
		return nil, fmt.Errorf("qdrant content collection: %w", err)
	}
	return &indexes{review: review, content: content}, nil
}

// qdrantCollection names a model's collection.
func qdrantCollection(cfg Config, suffix, tag string) string {
	return cfg.QdrantCollection + suffix + "_" + modelSlug(tag)
}
