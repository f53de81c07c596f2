package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// RevocationsCollection holds one document per revoked grant, keyed by a
// hash of the grant so a repeated removal updates it.
const RevocationsCollection = "grant_revocations"

// Revocations implements identity.RevocationStore.
type Revocations struct{ coll *mongo.Collection }

// NewRevocations returns the store on db.
func NewRevocations(db *mongo.Database) *Revocations {
	return &Revocations{coll: db.Collection(RevocationsCollection)}
}

type revocationRecord struct {
	ID             string `bson:"_id"`
	WorkspaceID    string `bson:"workspaceId"`
	UserID         string `bson:"userId"`
	ResourceType   string `bson:"resourceType"`
	ResourceID     string `bson:"resourceId"`
	OrganizationID string `bson:"organizationId"`
	RevokedAt      int64  `bson:"revokedAt"`
}

// EnsureIndexes creates the per-user lookup index.
func (s *Revocations) EnsureIndexes(ctx context.Context) error {
	_, err := s.coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "workspaceId", Value: 1}, {Key: "userId", Value: 1}}})
	return err
}

func revocationID(ws string, r identity.Revocation) string {
	h := sha256.New()
	for _, p := range []string{ws, r.UserID, string(r.Type), r.OrganizationID, r.ResourceID} {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// SaveRevocations implements identity.RevocationStore with one unordered
// insert; the revocations already stored (a retry, a grant removed again)
// get the new revokedAt with one more command. Both name documents by _id,
// so neither scans the collection.
func (s *Revocations) SaveRevocations(ctx context.Context, ws string, rs []identity.Revocation) error {
	if len(rs) == 0 {
		return nil
	}
	docs := make([]any, len(rs))
	for i, r := range rs {
		docs[i] = revocationRecord{
			ID: revocationID(ws, r), WorkspaceID: ws, UserID: r.UserID, ResourceType: string(r.Type),
			ResourceID: r.ResourceID, OrganizationID: r.OrganizationID, RevokedAt: r.RevokedAt,
		}
	}
	_, err := s.coll.InsertMany(ctx, docs, options.InsertMany().SetOrdered(false))
	stored, err := duplicates(err)
	if err != nil {
		return fmt.Errorf("insert revocations: %w", err)
	}
	return s.moveRevokedAt(ctx, stored, docs)
}

// moveRevokedAt sets the revokedAt of docs[stored] (already stored, their
// other fields equal by construction of the _id) with one command of an
// update by _id each (updateByID): an update of them all by $in would scan
// the collection.
func (s *Revocations) moveRevokedAt(ctx context.Context, stored []int, docs []any) error {
	updates := make([]idUpdate, len(stored))
	for i, d := range stored {
		rec := docs[d].(revocationRecord)
		updates[i] = idUpdate{id: rec.ID, update: bson.M{"$set": bson.M{"revokedAt": rec.RevokedAt}}}
	}
	return updateByID(ctx, s.coll, updates)
}

// DeleteRevocation implements identity.RevocationStore.
func (s *Revocations) DeleteRevocation(ctx context.Context, ws string, r identity.Revocation) error {
	_, err := s.coll.DeleteOne(ctx, bson.M{"_id": revocationID(ws, r)})
	return err
}

// Revocations implements identity.RevocationStore.
func (s *Revocations) Revocations(ctx context.Context, ws, userID string, since int64) ([]identity.Revocation, error) {
	cur, err := s.coll.Find(ctx, bson.D{
		{Key: "workspaceId", Value: ws}, {Key: "userId", Value: userID}, {Key: "revokedAt", Value: bson.M{"$gte": since}},
	})
	if err != nil {
		return nil, err
	}
	var recs []revocationRecord
	if err := cur.All(ctx, &recs); err != nil {
		return nil, err
	}
	out := make([]identity.Revocation, len(recs))
	for i, r := range recs {
		out[i] = identity.Revocation{
			UserID: r.UserID, Type: identity.ResourceType(r.ResourceType), ResourceID: r.ResourceID,
			OrganizationID: r.OrganizationID, RevokedAt: r.RevokedAt,
		}
	}
	return out, nil
}
