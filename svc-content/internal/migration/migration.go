// Package migration moves every piece of data keyed by a document id to a
// new document id. Start records a pending migration and returns its id at
// once; a Worker (one per process, any number of replicas) claims it under
// a lease and asks each owning service, in a fixed order, to re-key its data
// through the idempotent /internal/documents/migrate contract. Progress is
// stored after every step, so a migration interrupted by a crash resumes
// where it stopped once the lease runs out.
package migration

import (
	"context"
	"log/slog"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/opencollab/backend/pkg/docmigrate"
	"github.com/opencollab/backend/pkg/events"
)

// Status is the state of a migration (spec: Migration).
type Status string

// The states of a migration: pending → in_progress → completed | failed.
const (
	Pending    Status = "pending"
	InProgress Status = "in_progress"
	Completed  Status = "completed"
	Failed     Status = "failed"
)

// Event types published when a migration ends.
const (
	EventCompleted = "migration.completed"
	EventFailed    = "migration.failed"
)

// eventSource is the publishing service of the migration events.
const eventSource = "content"

// The owners' contract is pkg/docmigrate's: Document names a document,
// StepRequest is what an owner gets to move its data, and Owner is a
// service holding data keyed by document id, whose MigrateDocument must be
// idempotent per migration id (a re-run after a partial run finishes the
// job, after completion it moves nothing).
type (
	Document    = docmigrate.Document
	StepRequest = docmigrate.Move
	Owner       = docmigrate.Owner
)

// Step is one owner in the migration order, by the name stored in each
// migration record.
type Step struct {
	Name  string
	Owner Owner
}

// Publisher publishes the migration events (pkg/events.Publisher).
type Publisher interface {
	Publish(ctx context.Context, events ...events.Event) error
}

// Service starts migrations and reports their status.
type Service struct {
	store  *store
	steps  []Step
	pub    Publisher
	logger *slog.Logger
	now    func() time.Time
	// wake tells the workers of this process that a migration is waiting,
	// so it starts without waiting for the next poll.
	wake chan struct{}
}

// NewService returns a migration service over db's `migrations`,
// `migration_claims` and `migration_locks` collections. steps is the order
// data is moved in; the document record's owner (identity) should come last
// so a half-moved document is never visible under the new id as moved.
// pub may be nil (no events).
func NewService(db *mongo.Database, steps []Step, pub Publisher, logger *slog.Logger) *Service {
	if logger == nil {
		logger = slog.Default()
	}
	return &Service{
		store:  newStore(db),
		steps:  steps,
		pub:    pub,
		logger: logger,
		now:    func() time.Time { return time.Now().UTC().Truncate(time.Millisecond) },
		wake:   make(chan struct{}, 1),
	}
}

// EnsureIndexes creates the indexes the worker and Start query by.
func (s *Service) EnsureIndexes(ctx context.Context) error { return s.store.ensureIndexes(ctx) }

// owner returns the owner of the named step, nil when this process has
// none configured under that name.
func (s *Service) owner(name string) Owner {
	for _, st := range s.steps {
		if st.Name == name {
			return st.Owner
		}
	}
	return nil
}

func (s *Service) stepNames() []string {
	names := make([]string, len(s.steps))
	for i, st := range s.steps {
		names[i] = st.Name
	}
	return names
}

// signal wakes a waiting worker without blocking.
func (s *Service) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}
