// Package svcmemory is the memory service: agents (built-in and custom,
// versioned), judgments derived from activity events, and the decision
// memory over them (search, ask, suggest, judgments/query), plus the
// document-migration hooks svc-content calls. New builds it from
// configuration and dependencies so cmd/svc-memory and deploy/local host
// the same thing.
package svcmemory

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/pkg/service"
	"github.com/opencollab/backend/svc-memory/internal/agents"
	"github.com/opencollab/backend/svc-memory/internal/changefeed"
	"github.com/opencollab/backend/svc-memory/internal/httpapi"
	"github.com/opencollab/backend/svc-memory/internal/lexical"
	"github.com/opencollab/backend/svc-memory/internal/memory"
	"github.com/opencollab/backend/svc-memory/internal/store"
)

// Name is the service name in logs and traces.
const Name = "svc-memory"

// ConsumerGroup is the consumer group of the activity stream. A group
// that does not exist yet is created at stream id 0, so its first run
// reads every activity event the stream still retains: that is the
// backfill of activities this service has never seen.
const ConsumerGroup = "memory"

// Background cadence.
const (
	sweepEvery    = 30 * time.Second
	snapshotEvery = 10 * time.Minute
)

// Deps are the connected stores the service runs on.
type Deps = service.Deps

// Service is a ready-to-serve memory service. Close stops the activity
// consumer and the index sweeper, snapshots an embedded index when
// configured, and releases the indexes.
type Service struct {
	*service.Frame
	memory   *memory.Service
	indexes  *indexes
	vectors  *vectors
	embedder embedder
	states   *store.States
	cfg      Config
	logger   *slog.Logger
	changes  *changefeed.Feed
	closed   sync.Once
	ready    atomic.Bool // the index has caught up with the store at start
}

// New creates the indexes of the store, opens the vector indexes, starts
// the activity consumer (with its backfill) and the index sweeper, and
// builds the HTTP handler.
func New(ctx context.Context, cfg Config, deps Deps) (*Service, error) {
	f, err := service.Start(ctx, Name, &cfg, deps)
	if err != nil {
		return nil, err
	}
	logger := f.Logger
	judgments, agentStore := store.NewJudgments(f.DB), store.NewAgents(f.DB)
	if err := f.Ensure(ctx, judgments.EnsureIndexes, agentStore.EnsureIndexes); err != nil {
		return nil, err
	}
	embedder, err := newEmbedder(cfg)
	if err != nil {
		return nil, f.Fail(err)
	}
	states := store.NewStates(f.DB)
	vecs, err := planVectors(ctx, cfg, embedder, states, logger)
	if err != nil {
		return nil, f.Fail(err)
	}
	idx := vecs.current
	chatModel, err := newChat(cfg)
	if err != nil {
		_ = idx.close()
		return nil, f.Fail(err)
	}
	pages := f.PageTokens()
	changes := changefeed.New(f.Redis, logger)
	mem := memory.NewService(memory.Deps{
		Store: judgments, Review: idx.review, Content: idx.content, Embedder: embedder, Model: modelTag(embedder),
		Chat: chatModel, Pages: pages, Logger: logger, Lexical: lexical.New(), Changes: changes, Retrieval: cfg.Retrieval,
		MinSimilarity: cfg.MinSimilarity, MinCoverage: cfg.MinCoverage,
	})
	if vecs.reembed {
		mem.SetServing(vecs.previous) // nil: lexical only until re-embedded
	}
	s := &Service{Frame: f, memory: mem, indexes: idx, vectors: vecs, embedder: embedder, states: states, changes: changes, cfg: cfg, logger: logger}
	f.ReadyWhen(func(context.Context) error {
		if !s.ready.Load() {
			return errors.New("vector index still catching up with the judgments")
		}
		return nil
	})
	httpapi.Routes(f.Engine, f.Signer, mem, agents.NewService(agentStore, pages, time.Now))
	consumer := events.NewConsumer(f.Redis, ConsumerGroup, consumerName(),
		[]string{events.Stream(memory.ActivitySource)}, mem.HandleEvent, logger)
	f.Go(func(ctx context.Context) { _ = consumer.Run(ctx) })
	f.Go(s.maintainIndex)
	return s, nil
}

// Close stops the background work and waits for it, then snapshots and
// closes the vector indexes. Unacknowledged events stay pending in the
// consumer group for the next start. Calling it again does nothing.
func (s *Service) Close() { s.closed.Do(s.close) }

func (s *Service) close() {
	s.Frame.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.indexes.snapshot(ctx); err != nil {
		s.logger.WarnContext(ctx, "memory: snapshot of the vector index failed", "error", err)
	}
	if err := s.indexes.close(); err != nil {
		s.logger.WarnContext(ctx, "memory: closing the vector index failed", "error", err)
	}
	if s.vectors.prevIdx != nil {
		_ = s.vectors.prevIdx.close()
	}
}

// maintainIndex brings the vector index up to date with the store of
// record once (a rebuild when an embedded index starts empty, a catch-up
// after a snapshot), then sweeps unindexed judgments periodically and
// snapshots an embedded index.
func (s *Service) maintainIndex(ctx context.Context) {
	s.loadLexical(ctx)
	if s.vectors.reembed {
		// The model changed: serve (previous vectors, lexical) while the
		// new model's vectors are built.
		s.ready.Store(true)
		s.reembedInBackground(ctx)
	}
	for ctx.Err() == nil && !s.vectors.reembed {
		since, needed := s.indexes.staleSince()
		var n int
		var err error
		if needed {
			n, err = s.memory.Reindex(ctx, since)
		} else {
			n, err = s.memory.Sweep(ctx)
		}
		if err == nil {
			s.logger.InfoContext(ctx, "memory: vector index ready", "indexed", n, "rebuild", needed && since == 0)
			s.recordModel(ctx)
			break
		}
		if ctx.Err() != nil {
			return
		}
		s.logger.WarnContext(ctx, "memory: bringing the vector index up to date failed, retrying", "error", err)
		sleep(ctx, 5*time.Second)
	}
	s.ready.Store(true)
	sweep := time.NewTicker(sweepEvery)
	defer sweep.Stop()
	snap := time.NewTicker(snapshotEvery)
	defer snap.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-sweep.C:
			if n, err := s.memory.Sweep(ctx); err != nil && ctx.Err() == nil {
				s.logger.WarnContext(ctx, "memory: index sweep failed", "indexed", n, "error", err)
			}
		case <-snap.C:
			if err := s.indexes.snapshot(ctx); err != nil && ctx.Err() == nil {
				s.logger.WarnContext(ctx, "memory: snapshot of the vector index failed", "error", err)
			}
		}
	}
}

// loadLexical fills the lexical index from the store, then follows the
// other replicas' changes from the feed position taken before loading.
func (s *Service) loadLexical(ctx context.Context) {
	for ctx.Err() == nil {
		from, err := s.changes.Position(ctx)
		var n int
		if err == nil {
			n, err = s.memory.LoadLexical(ctx)
		}
		if err == nil {
			s.logger.InfoContext(ctx, "memory: lexical index loaded", "judgments", n)
			s.Go(func(ctx context.Context) { s.changes.Follow(ctx, from, s.memory.Refresh) })
			return
		}
		s.logger.WarnContext(ctx, "memory: loading the lexical index failed, retrying", "error", err)
		sleep(ctx, 5*time.Second)
	}
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// consumerName names this process in the consumer group.
func consumerName() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "local"
	}
	return Name + "-" + host
}
