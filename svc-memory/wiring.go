package svcmemory

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/opencollab/backend/svc-memory/internal/chat"
	"github.com/opencollab/backend/svc-memory/internal/embed"
	"github.com/opencollab/backend/svc-memory/internal/memory"
	"github.com/opencollab/backend/svc-memory/internal/vector"
)

// embedder is what the service needs of internal/embed.
type embedder interface {
	Dim() int
	Model() string
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// modelTag names the vectors an embedder makes: model and dimension.
func modelTag(e embedder) string { return fmt.Sprintf("%s/%d", e.Model(), e.Dim()) }

// modelSlug is a model tag as a collection or file name part: lowercase
// letters, digits and dashes.
func modelSlug(tag string) string {
	b := []byte(strings.ToLower(tag))
	for i, c := range b {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			b[i] = '-'
		}
	}
	return string(b)
}

func newEmbedder(cfg Config) (embedder, error) {
	if cfg.EmbeddingsBaseURL == "" {
		return embed.NewHashing(cfg.EmbeddingDim), nil
	}
	return embed.NewOpenAI(cfg.EmbeddingsBaseURL, cfg.EmbeddingsAPIKey, cfg.EmbeddingsModel, cfg.EmbeddingDim, nil)
}

// newChat returns the chat model of ask, nil (extractive answers) when
// none is configured.
func newChat(cfg Config) (memory.ChatModel, error) {
	if cfg.ChatBaseURL == "" {
		return nil, nil
	}
	return chat.New(cfg.ChatBaseURL, cfg.ChatAPIKey, cfg.ChatModel, nil)
}

// snapshotMargin re-indexes judgments written shortly before a snapshot
// was taken too: a write racing the snapshot may be in neither.
const snapshotMargin = time.Minute

// indexes are the two vector indexes: review (decision and reasoning) and
// content (the reviewed content).
type indexes struct {
	review, content vector.Index
	// embedded are the same two when they are in-process (nil with Qdrant).
	embedded  []*vector.Embedded
	snapshots bool
}

// openIndexes opens the two indexes of one model (tag): two Qdrant
// collections when configured, else two embedded indexes (loaded from
// their snapshots when there are some). Each model has its own
// collections and snapshot files (modelSlug), so vectors of different
// models never mix.
func openIndexes(ctx context.Context, cfg Config, tag string, dim int, logger *slog.Logger) (*indexes, error) {
	if cfg.QdrantAddr != "" {
		return openQdrant(ctx, cfg, tag, dim)
	}
	x := &indexes{snapshots: cfg.IndexSnapshotDir != ""}
	for _, name := range []string{"review", "content"} {
		e, err := openEmbedded(cfg.IndexSnapshotDir, name+"."+modelSlug(tag), dim, logger)
		if err != nil {
			for _, opened := range x.embedded {
				_ = opened.Close()
			}
			return nil, err
		}
		x.embedded = append(x.embedded, e)
	}
	x.review, x.content = x.embedded[0], x.embedded[1]
	return x, nil
}

// openEmbedded opens one embedded index; an unusable snapshot is removed
// and the index rebuilt from the store instead.
func openEmbedded(dir, name string, dim int, logger *slog.Logger) (*vector.Embedded, error) {
	opts := vector.Options{Dim: dim}
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("index snapshot directory: %w", err)
		}
		opts.SnapshotPath = filepath.Join(dir, name+".snapshot")
	}
	e, err := vector.NewEmbedded(opts)
	if errors.Is(err, vector.ErrBadSnapshot) {
		logger.Warn("memory: discarding an unusable index snapshot; rebuilding from the judgments",
			"path", opts.SnapshotPath, "error", err)
		if rmErr := os.Remove(opts.SnapshotPath); rmErr != nil {
			return nil, fmt.Errorf("remove unusable snapshot: %w", rmErr)
		}
		e, err = vector.NewEmbedded(opts)
	}
	if err != nil {
		return nil, fmt.Errorf("embedded %s index: %w", name, err)
	}
	return e, nil
}

// staleSince tells what the index lacks at start: an embedded index that
// starts empty needs every judgment (since 0), one loaded from snapshots
// needs those written since the older snapshot; Qdrant persists and needs
// nothing (needed false).
func (x *indexes) staleSince() (since int64, needed bool) {
	if len(x.embedded) == 0 {
		return 0, false
	}
	var oldest time.Time
	for _, e := range x.embedded {
		taken := e.SnapshotTime()
		if e.Len() == 0 || taken.IsZero() {
			return 0, true
		}
		if oldest.IsZero() || taken.Before(oldest) {
			oldest = taken
		}
	}
	return max(oldest.Add(-snapshotMargin).UnixMilli(), 1), true
}

func (x *indexes) snapshot(ctx context.Context) error {
	if !x.snapshots {
		return nil
	}
	var errs []error
	for _, e := range x.embedded {
		errs = append(errs, e.Snapshot(ctx))
	}
	return errors.Join(errs...)
}

func (x *indexes) close() error {
	var errs []error
	for _, idx := range []vector.Index{x.review, x.content} {
		if idx != nil {
			errs = append(errs, idx.Close())
		}
	}
	return errors.Join(errs...)
}
