package svcmemory

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/opencollab/backend/svc-memory/internal/embed"
	"github.com/opencollab/backend/svc-memory/internal/memory"
	"github.com/opencollab/backend/svc-memory/internal/store"
)

// vectors is what the service starts with: the configured model's
// indexes, and, when they must be filled by a background re-embedding
// (the model changed), the previous model's space that keeps serving
// meanwhile (nil when its embedder is no longer available: search is
// then lexical until the re-embedding completes).
type vectors struct {
	model    string
	current  *indexes
	previous *memory.VectorSpace
	prevIdx  *indexes
	prevTag  string
	reembed  bool
	state    store.VectorState // recorded once current is complete
	recorded bool              // state already says current
}

// planVectors opens the configured model's indexes and decides, from the
// recorded state, whether they need a background re-embedding.
func planVectors(ctx context.Context, cfg Config, emb embedder, states *store.States, logger *slog.Logger) (*vectors, error) {
	tag := modelTag(emb)
	cur, err := openIndexes(ctx, cfg, tag, emb.Dim(), logger)
	if err != nil {
		return nil, err
	}
	v := &vectors{model: tag, current: cur, state: stateOf(cfg, emb)}
	st, found, err := states.VectorState(ctx)
	if err != nil {
		_ = cur.close()
		return nil, err
	}
	v.recorded = found && st.Model == tag
	switch {
	case v.recorded:
	case cfg.QdrantAddr != "":
		// Qdrant persists: collections of a model the state does not name
		// complete are filled in the background.
		v.reembed = true
		v.openPrevious(ctx, cfg, st, found, logger)
	case cfg.IndexSnapshotDir != "" && !cur.loadedFromSnapshot() && found:
		// An embedded index without its own snapshot, after a model
		// change: serve the previous model's snapshot while re-embedding.
		if v.openPrevious(ctx, cfg, st, found, logger) {
			v.reembed = true
		}
	}
	return v, nil
}

// stateOf describes the configured model.
func stateOf(cfg Config, emb embedder) store.VectorState {
	st := store.VectorState{Model: modelTag(emb), Name: emb.Model(), Dim: emb.Dim()}
	if cfg.EmbeddingsBaseURL != "" {
		st.BaseURL = cfg.EmbeddingsBaseURL
	}
	return st
}

// openPrevious opens the recorded model's space if its embedder can still
// be built (the built-in one always; an endpoint's model when the same
// endpoint is configured) and, for the embedded index, its snapshot
// exists. It reports whether it did.
func (v *vectors) openPrevious(ctx context.Context, cfg Config, st store.VectorState, found bool, logger *slog.Logger) bool {
	if !found || st.Model == v.model {
		return false
	}
	prev := previousEmbedder(cfg, st)
	if prev == nil {
		logger.Warn("memory: the previous embedding model cannot be used; search is lexical until re-embedding completes",
			"previous", st.Model, "model", v.model)
		return false
	}
	if cfg.QdrantAddr == "" && !snapshotExists(cfg.IndexSnapshotDir, st.Model) {
		return false
	}
	idx, err := openIndexes(ctx, cfg, st.Model, st.Dim, logger)
	if err != nil {
		logger.Warn("memory: opening the previous model's index failed", "previous", st.Model, "error", err)
		return false
	}
	v.prevIdx, v.prevTag = idx, st.Model
	v.previous = &memory.VectorSpace{Model: st.Model, Embedder: prev, Review: idx.review, Content: idx.content}
	return true
}

func previousEmbedder(cfg Config, st store.VectorState) memory.Embedder {
	switch {
	case st.BaseURL == "" && st.Name == embed.HashingModel:
		return embed.NewHashing(st.Dim)
	case st.BaseURL != "" && st.BaseURL == cfg.EmbeddingsBaseURL:
		e, err := embed.NewOpenAI(cfg.EmbeddingsBaseURL, cfg.EmbeddingsAPIKey, st.Name, st.Dim, nil)
		if err == nil {
			return e
		}
	}
	return nil
}

func snapshotPath(dir, name, tag string) string {
	return filepath.Join(dir, name+"."+modelSlug(tag)+".snapshot")
}

func snapshotExists(dir, tag string) bool {
	_, err := os.Stat(snapshotPath(dir, "review", tag))
	return err == nil
}

// loadedFromSnapshot reports whether embedded indexes came from their
// snapshots.
func (x *indexes) loadedFromSnapshot() bool {
	for _, e := range x.embedded {
		if e.SnapshotTime().IsZero() {
			return false
		}
	}
	return len(x.embedded) > 0
}

// drainPrevious is how long the previous space stays open after the
// switch.
const drainPrevious = 5 * time.Second

// reembedInBackground fills the current model's indexes while the
// previous space (or the lexical index alone) serves, then records the
// model and drops the previous space.
func (s *Service) reembedInBackground(ctx context.Context) {
	v := s.vectors
	target := &memory.VectorSpace{Model: v.model, Embedder: s.embedder, Review: v.current.review, Content: v.current.content}
	s.logger.InfoContext(ctx, "memory: re-embedding judgments with a new model in the background",
		"model", v.model, "previous", v.prevTag)
	s.memory.Reembed(ctx, target, func(err error) {
		if err != nil {
			s.logger.WarnContext(ctx, "memory: re-embedding failed; it is retried at the next start", "model", v.model, "error", err)
			return
		}
		s.recordModel(ctx)
		// Searches that took the previous space just before the switch
		// finish with it first.
		sleep(ctx, drainPrevious)
		s.dropPrevious()
	})
}

// recordModel saves the current model as the one the index is complete
// for.
func (s *Service) recordModel(ctx context.Context) {
	if s.vectors.recorded {
		return
	}
	if err := s.states.SaveVectorState(ctx, s.vectors.state); err != nil {
		s.logger.WarnContext(ctx, "memory: recording the embedding model failed", "error", err)
		return
	}
	s.vectors.recorded = true
}

// dropPrevious closes the previous model's indexes and removes its
// embedded snapshots (Qdrant collections are left for the operator).
func (s *Service) dropPrevious() {
	v := s.vectors
	if v.prevIdx == nil {
		return
	}
	err := v.prevIdx.close()
	if v.prevIdx.snapshots {
		for _, name := range []string{"review", "content"} {
			rmErr := os.Remove(snapshotPath(s.cfg.IndexSnapshotDir, name, v.prevTag))
			if !errors.Is(rmErr, os.ErrNotExist) {
				err = errors.Join(err, rmErr)
			}
		}
	}
	if err != nil {
		s.logger.Warn("memory: dropping the previous model's index", "error", err)
	}
	v.prevIdx = nil
}
