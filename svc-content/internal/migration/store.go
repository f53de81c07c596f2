package migration

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
)

// Collection names in svc-content's database.
const (
	migrationsColl = "migrations"
	claimsColl     = "migration_claims"
	locksColl      = "migration_locks"
)

// errNotFound is a missing migration record.
var errNotFound = errors.New("migration not found")

// record is a migration as stored. Done maps each finished step to the
// number of records it moved; a step is finished when its key is present.
type record struct {
	ID             string           `bson:"_id"`
	WorkspaceID    string           `bson:"workspaceId"`
	OrganizationID string           `bson:"organizationId"`
	DocumentID     string           `bson:"documentId"`
	NewDocumentID  string           `bson:"newDocumentId"`
	Status         Status           `bson:"status"`
	Steps          []string         `bson:"steps"`
	Done           map[string]int64 `bson:"done"`
	Attempts       int              `bson:"attempts"`
	Error          string           `bson:"error,omitempty"`
	LeaseOwner     string           `bson:"leaseOwner"` // hint; the claims hold the lease
	LeaseUntil     time.Time        `bson:"leaseUntil"` // hint for the candidates query
	CreatedAt      time.Time        `bson:"createdAt"`
	UpdatedAt      time.Time        `bson:"updatedAt"`
}

func (r record) source() Document {
	return Document{WorkspaceID: r.WorkspaceID, OrganizationID: r.OrganizationID, DocumentID: r.DocumentID}
}

func (r record) target() Document {
	return Document{WorkspaceID: r.WorkspaceID, OrganizationID: r.OrganizationID, DocumentID: r.NewDocumentID}
}

var activeStatuses = bson.A{Pending, InProgress}

type store struct {
	migrations *mongo.Collection
	claims     *mongo.Collection
	locks      *mongo.Collection
}

func newStore(db *mongo.Database) *store {
	return &store{
		migrations: db.Collection(migrationsColl),
		claims:     db.Collection(claimsColl),
		locks:      db.Collection(locksColl),
	}
}

func (s *store) ensureIndexes(ctx context.Context) error {
	if err := mongodb.EnsureIndexes(ctx, s.migrations, mongo.IndexModel{
		Keys:    bson.D{{Key: "status", Value: 1}, {Key: "leaseUntil", Value: 1}},
		Options: options.Index().SetName("status_leaseUntil"),
	}, mongo.IndexModel{
		Keys:    bson.D{{Key: "workspaceId", Value: 1}, {Key: "organizationId", Value: 1}, {Key: "documentId", Value: 1}},
		Options: options.Index().SetName("workspace_org_document"),
	}); err != nil {
		return err
	}
	return mongodb.EnsureIndexes(ctx, s.claims, mongo.IndexModel{
		Keys:    bson.D{{Key: "migrationId", Value: 1}, {Key: "gen", Value: -1}},
		Options: options.Index().SetName("migrationId_gen"),
	})
}

func (s *store) insert(ctx context.Context, r record) error {
	if _, err := s.migrations.InsertOne(ctx, r); err != nil {
		return fmt.Errorf("insert migration: %w", err)
	}
	return nil
}

// find returns the migration id of the workspace's organization.
func (s *store) find(ctx context.Context, ws, org, id string) (record, error) {
	return s.findOne(ctx, bson.M{"_id": id, "workspaceId": ws, "organizationId": org})
}

// get returns a migration by id alone: the worker serves every workspace.
func (s *store) get(ctx context.Context, id string) (record, error) {
	return s.findOne(ctx, bson.M{"_id": id})
}

func (s *store) findOne(ctx context.Context, filter bson.M) (record, error) {
	var r record
	err := s.migrations.FindOne(ctx, filter).Decode(&r)
	if mongodb.IsNotFound(err) {
		return record{}, errNotFound
	}
	if err != nil {
		return record{}, fmt.Errorf("find migration: %w", err)
	}
	return r, nil
}

// failedBetween reports whether a migration from doc to newDoc failed.
func (s *store) failedBetween(ctx context.Context, ws, org, doc, newDoc string) (bool, error) {
	n, err := s.migrations.CountDocuments(ctx, bson.M{
		"workspaceId": ws, "organizationId": org, "documentId": doc, "newDocumentId": newDoc, "status": Failed,
	}, options.Count().SetLimit(1))
	if err != nil {
		return false, fmt.Errorf("find failed migrations: %w", err)
	}
	return n > 0, nil
}

// claimable returns unfinished migrations whose lease has run out, oldest
// first. It spans workspaces on purpose: the worker serves all of them.
func (s *store) claimable(ctx context.Context, now time.Time, limit int64) ([]record, error) {
	cur, err := s.migrations.Find(ctx,
		bson.M{"status": bson.M{"$in": activeStatuses}, "leaseUntil": bson.M{"$lte": now}},
		options.Find().SetSort(bson.D{{Key: "createdAt", Value: 1}}).SetLimit(limit))
	if err != nil {
		return nil, fmt.Errorf("find claimable migrations: %w", err)
	}
	var out []record
	if err := cur.All(ctx, &out); err != nil {
		return nil, fmt.Errorf("read claimable migrations: %w", err)
	}
	return out, nil
}

// markClaimed records the new holder on the migration (a hint for the
// candidates query and for operators; the claims collection is the
// authority) unless the migration ended meanwhile.
func (s *store) markClaimed(ctx context.Context, id, owner string, until, now time.Time) (bool, error) {
	return s.updateIf(ctx, bson.M{"_id": id, "status": bson.M{"$in": activeStatuses}},
		bson.M{"status": InProgress, "leaseOwner": owner, "leaseUntil": until, "updatedAt": now})
}

// touch mirrors a renewed lease on the record.
func (s *store) touch(ctx context.Context, id, owner string, until, now time.Time) (bool, error) {
	return s.updateIf(ctx, bson.M{"_id": id, "leaseOwner": owner}, bson.M{"leaseUntil": until, "updatedAt": now})
}

// recordStep marks step finished with the number of records it moved.
func (s *store) recordStep(ctx context.Context, id, owner, step string, moved int64, now time.Time) (bool, error) {
	return s.updateIf(ctx, bson.M{"_id": id, "leaseOwner": owner}, bson.M{"done." + step: moved, "updatedAt": now})
}

// release gives the migration up after a failed attempt; it can be
// claimed again from retryAt.
func (s *store) release(ctx context.Context, id, owner string, attempts int, lastErr string, retryAt, now time.Time) (bool, error) {
	return s.updateIf(ctx, bson.M{"_id": id, "leaseOwner": owner},
		bson.M{"attempts": attempts, "error": lastErr, "leaseUntil": retryAt, "updatedAt": now})
}

// finish ends the migration as completed or failed.
func (s *store) finish(ctx context.Context, id, owner string, status Status, reason string, now time.Time) (bool, error) {
	return s.updateIf(ctx, bson.M{"_id": id, "leaseOwner": owner, "status": bson.M{"$in": activeStatuses}},
		bson.M{"status": status, "error": reason, "leaseUntil": now, "updatedAt": now})
}

func (s *store) updateIf(ctx context.Context, filter, set bson.M) (bool, error) {
	res, err := s.migrations.UpdateOne(ctx, filter, bson.M{"$set": set})
	if err != nil {
		return false, fmt.Errorf("update migration: %w", err)
	}
	return res.MatchedCount == 1, nil
}
