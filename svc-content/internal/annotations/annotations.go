// Package annotations keeps comment annotations: threads anchored in a
// document, their comments and their reactions (spec §7 of
// adjacent-operations.md). Every record carries its workspace id and every
// query filters on it.
//
// An annotation is stored as one document (internal/store) holding its comments and reactions.
// Writes to it read, change in Go and replace the document on the version
// they read (FerretDB has no arrayFilters or pipeline updates), retrying when
// another writer came first, so concurrent comments are never lost. A per-user
// feed (feed.go) written next to each change lets users/data/get page through
// a user's comments and reactions at a cost that does not grow with them.
package annotations

import (
	"context"
	"log/slog"
	"time"

	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/pkg/keylock"
	"github.com/opencollab/backend/pkg/pagetoken"
)

// Publisher publishes domain events (pkg/events.Publisher satisfies it).
type Publisher interface {
	Publish(ctx context.Context, events ...events.Event) error
}

// Service runs the comment-annotation operations.
type Service struct {
	annotations AnnotationStore
	counters    NumberStore
	feeds       FeedStore
	pages       PageTokenStore
	pub         Publisher
	access      AccessChecker   // nil: verifyUserPermissions answers UNAVAILABLE
	folders     FolderLister    // nil: get's folderId answers UNAVAILABLE
	agents      AgentDirectory  // nil: comments of built-in or custom agents answer UNAVAILABLE
	scope       ScopeEnsurer    // nil: createOrganization and createDocument have no effect
	locks       keylock.Stripes // annotations
	logger      *slog.Logger
	now         func() time.Time
}

// NewService returns the service on stores, publishing its events on pub.
func NewService(stores Stores, pub Publisher) *Service {
	return &Service{
		annotations: stores.Annotations,
		counters:    stores.Numbers,
		feeds:       stores.Feeds,
		pages:       stores.PageTokens,
		pub:         pub,
		logger:      slog.Default(),
		now:         time.Now,
	}
}

// WithPageTokens keeps the page tokens of get in Redis (pkg/pagetoken), as
// every other service does, instead of the store's database fallback.
func (s *Service) WithPageTokens(p *pagetoken.Store) *Service {
	if p != nil {
		s.pages = p
	}
	return s
}

// WithLogger sets the logger of failures that do not fail a request.
func (s *Service) WithLogger(l *slog.Logger) *Service {
	if l != nil {
		s.logger = l
	}
	return s
}

// EnsureIndexes creates the indexes the annotation queries run on; safe at
// every start. The feed collections are only read by _id and need none.
func (s *Service) EnsureIndexes(ctx context.Context) error {
	if err := s.annotations.EnsureIndexes(ctx); err != nil {
		return err
	}
	// A store of page tokens in the database (internal/store's fallback)
	// has indexes too; Redis has none.
	if st, ok := s.pages.(interface{ EnsureIndexes(context.Context) error }); ok {
		return st.EnsureIndexes(ctx)
	}
	return nil
}

// nowMs is the service clock in epoch milliseconds.
func (s *Service) nowMs() int64 { return s.now().UnixMilli() }
