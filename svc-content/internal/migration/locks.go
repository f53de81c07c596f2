package migration

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/mongodb"
)

// A document lock says an unfinished migration moves data from or to the
// document. Locks are unique documents, so two concurrent Starts touching
// the same document cannot both succeed. They are removed when the
// migration ends; a lock left behind by a crash is recognised as stale
// (its migration ended or never got recorded) and taken over.

// orphanAge is how long a lock without a migration record is respected: a
// Start inserts its locks just before the record.
const orphanAge = time.Minute

type lockDoc struct {
	ID          string    `bson:"_id"`
	MigrationID string    `bson:"migrationId"`
	CreatedAt   time.Time `bson:"createdAt"`
}

// lockKey names a document unambiguously whatever characters its ids hold.
func lockKey(d Document) string {
	b, _ := json.Marshal([]string{d.WorkspaceID, d.OrganizationID, d.DocumentID})
	return string(b)
}

// lockDocuments locks every document of docs for migration id, or none:
// FAILED_PRECONDITION when another unfinished migration holds one.
func (s *store) lockDocuments(ctx context.Context, id string, now time.Time, docs ...Document) error {
	for i, d := range docs {
		if err := s.lockDocument(ctx, id, lockKey(d), now); err != nil {
			s.unlock(ctx, id, docs[:i]...)
			var busy *busyError
			if errors.As(err, &busy) {
				return api.Errorf(api.FailedPrecondition,
					"document %q is already part of migration %s that has not finished", d.DocumentID, busy.holder)
			}
			return err
		}
	}
	return nil
}

type busyError struct{ holder string }

func (e *busyError) Error() string { return "document is locked by migration " + e.holder }

func (s *store) lockDocument(ctx context.Context, id, key string, now time.Time) error {
	for try := 0; try < 2; try++ {
		_, err := s.locks.InsertOne(ctx, lockDoc{ID: key, MigrationID: id, CreatedAt: now})
		if err == nil {
			return nil
		}
		if !mongodb.IsDuplicateKey(err) {
			return fmt.Errorf("lock document: %w", err)
		}
		held, err := s.staleLock(ctx, key, now)
		if err != nil {
			return err
		}
		if held.MigrationID != "" {
			return &busyError{holder: held.MigrationID}
		}
	}
	return &busyError{holder: "(unknown)"}
}

// staleLock removes the lock at key when its migration is over (or was
// never recorded) and returns the zero lockDoc; a live lock is returned.
func (s *store) staleLock(ctx context.Context, key string, now time.Time) (lockDoc, error) {
	var l lockDoc
	err := s.locks.FindOne(ctx, bson.M{"_id": key}).Decode(&l)
	if mongodb.IsNotFound(err) {
		return lockDoc{}, nil // released meanwhile: try again
	}
	if err != nil {
		return lockDoc{}, fmt.Errorf("read document lock: %w", err)
	}
	m, err := s.get(ctx, l.MigrationID)
	switch {
	case errors.Is(err, errNotFound):
		if now.Sub(l.CreatedAt) < orphanAge {
			return l, nil
		}
	case err != nil:
		return lockDoc{}, err
	case m.Status == Pending || m.Status == InProgress:
		return l, nil
	}
	if _, err := s.locks.DeleteOne(ctx, bson.M{"_id": key, "migrationId": l.MigrationID}); err != nil {
		return lockDoc{}, fmt.Errorf("remove stale document lock: %w", err)
	}
	return lockDoc{}, nil
}

// unlock removes the locks migration id holds on docs; best effort, since
// a lock left behind is taken over once its migration is seen finished.
func (s *store) unlock(ctx context.Context, id string, docs ...Document) {
	for _, d := range docs {
		_, _ = s.locks.DeleteOne(ctx, bson.M{"_id": lockKey(d), "migrationId": id})
	}
}
