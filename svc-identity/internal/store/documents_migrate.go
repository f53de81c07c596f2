package store

import (
	"context"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// migrationBatch bounds how many memberships one read of a move holds.
const migrationBatch = 500

// MoveDocumentMemberships implements identity.DocumentMigrationStore. Each
// membership is copied under the new id, then deleted under the old one:
// a run stopped between the two leaves a copy that the next run keeps, so
// a re-run continues where a stopped one ended.
func (s *Store) MoveDocumentMemberships(ctx context.Context, ws, orgID, oldID, newID string) (int64, error) {
	var moved int64
	for {
		batch, err := findAll[membershipRecord](ctx, s.members,
			documentMemberships(ws, orgID, oldID), pageOptions(migrationBatch, "userId"))
		if err != nil {
			return moved, err
		}
		for _, r := range batch {
			if err := s.moveMembership(ctx, r, newID); err != nil {
				return moved, err
			}
			moved++
		}
		if len(batch) < migrationBatch {
			return moved, nil
		}
	}
}

// moveMembership re-keys one membership. When the user already has a
// membership of newID (an earlier copy, or a grant made meanwhile) that
// one is kept. Copy-then-delete rather than an in-place update of the key:
// FerretDB reports a unique-index violation of an update as an internal
// error, but that of an insert as a duplicate key.
func (s *Store) moveMembership(ctx context.Context, r membershipRecord, newID string) error {
	oldKey := membershipKey(r.WorkspaceID, r.domain().MembershipKey)
	moved := r
	moved.ResourceID = newID
	if err := insert(ctx, s.members, moved); err != nil && !errors.Is(err, identity.ErrAlreadyExists) {
		return err
	}
	_, err := deleteMany(ctx, s.members, oldKey)
	return err
}

// RenameDocument implements identity.DocumentMigrationStore.
func (s *Store) RenameDocument(ctx context.Context, ws, orgID, oldID, newID string, now int64) error {
	res, err := s.docs.UpdateOne(ctx, documentKey(ws, orgID, oldID),
		bson.M{"$set": bson.M{"documentId": newID, "lastUpdated": now}})
	if mongodb.IsDuplicateKey(err) {
		return identity.ErrAlreadyExists
	}
	if err != nil {
		return fmt.Errorf("rename in %s: %w", s.docs.Name(), err)
	}
	if res.MatchedCount == 0 {
		return identity.ErrNotFound
	}
	return nil
}

// DocumentHasMemberships implements identity.DocumentMigrationStore.
func (s *Store) DocumentHasMemberships(ctx context.Context, ws, orgID, docID string) (bool, error) {
	return exists(ctx, s.members, documentMemberships(ws, orgID, docID))
}

// documentMemberships matches every membership of one document.
func documentMemberships(ws, orgID, docID string) bson.D {
	return append(orgKey(ws, orgID),
		bson.E{Key: "resourceType", Value: string(identity.ResourceDocument)}, bson.E{Key: "resourceId", Value: docID})
}
