package migration

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
)

// The lease on a migration is a chain of claims: claim N+1 may only be
// inserted by whoever read claim N as the latest, and its _id
// ("<migrationId>#<N+1>") is unique, so each generation has exactly one
// winner. Taking over an expired lease and renewing a live one both insert
// the next generation; when the holder and a claimer race, one of them
// loses and knows it. Inserts are atomic on MongoDB and FerretDB alike,
// whereas FerretDB v1 runs a conditional update as a read followed by a
// write, which two workers could both "win".

// claim is one generation of a migration's lease: Owner may work on the
// migration until Until.
type claim struct {
	ID          string    `bson:"_id"`
	MigrationID string    `bson:"migrationId"`
	Gen         int64     `bson:"gen"`
	Owner       string    `bson:"owner"`
	Until       time.Time `bson:"until"`
	CreatedAt   time.Time `bson:"createdAt"`
}

func newClaim(migrationID string, gen int64, owner string, until, now time.Time) claim {
	return claim{
		ID: fmt.Sprintf("%s#%d", migrationID, gen), MigrationID: migrationID, Gen: gen,
		Owner: owner, Until: until, CreatedAt: now,
	}
}

// latestClaim returns the newest generation of migration id's lease; found
// is false when nobody ever claimed it.
func (s *store) latestClaim(ctx context.Context, id string) (c claim, found bool, err error) {
	err = s.claims.FindOne(ctx, bson.M{"migrationId": id},
		options.FindOne().SetSort(bson.D{{Key: "gen", Value: -1}})).Decode(&c)
	if mongodb.IsNotFound(err) {
		return claim{}, false, nil
	}
	if err != nil {
		return claim{}, false, fmt.Errorf("read migration claim: %w", err)
	}
	return c, true, nil
}

// claimByID returns the claim of one generation.
func (s *store) claimByID(ctx context.Context, id string, gen int64) (claim, bool, error) {
	var c claim
	err := s.claims.FindOne(ctx, bson.M{"_id": newClaim(id, gen, "", time.Time{}, time.Time{}).ID}).Decode(&c)
	if mongodb.IsNotFound(err) {
		return claim{}, false, nil
	}
	if err != nil {
		return claim{}, false, fmt.Errorf("read migration claim: %w", err)
	}
	return c, true, nil
}

// insertClaim adds generation c.Gen; false when another worker has it.
func (s *store) insertClaim(ctx context.Context, c claim) (bool, error) {
	_, err := s.claims.InsertOne(ctx, c)
	if mongodb.IsDuplicateKey(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("insert migration claim: %w", err)
	}
	return true, nil
}

// dropClaims removes the lease chain of a finished migration. A worker
// that starts a new chain afterwards finds the migration finished when it
// marks its claim and stops.
func (s *store) dropClaims(ctx context.Context, id string) error {
	if _, err := s.claims.DeleteMany(ctx, bson.M{"migrationId": id}); err != nil {
		return fmt.Errorf("remove migration claims: %w", err)
	}
	return nil
}
