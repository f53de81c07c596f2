// Package annotations keeps comment annotations: threads anchored in a
// document, their comments and their reactions (spec §7 of
// adjacent-operations.md). Every record carries its workspace id and every
// query filters on it.
//
// An annotation is one MongoDB document holding its comments and reactions.
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

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/pkg/keylock"
	"github.com/opencollab/backend/pkg/pagetoken"
)

// Publisher publishes domain events (pkg/events.Publisher satisfies it).
type Publisher interface {
	Publish(ctx context.Context, events ...events.Event) error
}

// Collection names, prefixed so they never meet the other content
// collections in the shared database.
const (
	AnnotationsCollection = "comment_annotations"
	CountersCollection    = "comment_annotation_counters"
	FeedCollection        = "comment_annotation_user_feed"
	FeedRowsCollection    = "comment_annotation_user_feed_rows"
	PageTokensCollection  = "comment_annotation_pagetokens"
)

// Service runs the comment-annotation operations.
type Service struct {
	annotations annotationStore
	counters    numberStore
	feeds       feedStore
	pages       pageTokens
	pub         Publisher
	locks       keylock.Stripes // annotations
	logger      *slog.Logger
	now         func() time.Time
}

// NewService returns the service on db. Page tokens of get are kept in db
// until WithPageTokens hands it the shared Redis store.
func NewService(db *mongo.Database, pub Publisher) *Service {
	coll := func(name string) *mongo.Collection { return collection(db, name) }
	s := &Service{
		annotations: &mongoAnnotations{coll: coll(AnnotationsCollection)},
		counters:    &mongoCounters{coll: coll(CountersCollection)},
		feeds:       &mongoFeed{heads: coll(FeedCollection), rows: coll(FeedRowsCollection)},
		pub:         pub,
		logger:      slog.Default(),
		now:         time.Now,
	}
	s.pages = &storedPageTokens{coll: coll(PageTokensCollection), now: s.now}
	return s
}

// collection is collection name of db. Open objects (users, locations,
// context, ...) are map[string]any; nested documents read back as maps so
// they encode to JSON as objects.
func collection(db *mongo.Database, name string) *mongo.Collection {
	return db.Collection(name, options.Collection().SetBSONOptions(&options.BSONOptions{DefaultDocumentMap: true}))
}

// WithPageTokens keeps the page tokens of get in Redis (pkg/pagetoken), as
// every other service does, instead of the database fallback.
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
	if st, ok := s.pages.(*storedPageTokens); ok {
		return st.ensureIndexes(ctx)
	}
	return nil
}

// nowMs is the service clock in epoch milliseconds.
func (s *Service) nowMs() int64 { return s.now().UnixMilli() }
