package signing

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/opencollab/backend/pkg/mongodb"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// secretsCollection holds one document per workspace, keyed by workspace id.
const secretsCollection = "workspace_secrets"

// secretLen is the length of each generated secret: 256 bits, the SHA-256
// output size, which RFC 2104 recommends as the minimum HMAC key length.
const secretLen = 32

// Secrets are a workspace's keys: Signature for permission signatures, JWT
// for user tokens.
type Secrets struct {
	Signature []byte
	JWT       []byte
}

// SecretStore creates each workspace's secrets on first use and caches them:
// they never change, so a cached value can never be stale.
type SecretStore struct {
	coll  *mongo.Collection
	cache sync.Map // workspace id -> Secrets
}

type secretsDoc struct {
	ID              string    `bson:"_id"`
	WorkspaceID     string    `bson:"workspaceId"`
	SignatureSecret []byte    `bson:"signatureSecret"`
	JWTSecret       []byte    `bson:"jwtSecret"`
	CreatedAt       time.Time `bson:"createdAt"`
}

// NewSecretStore returns a store on db's workspace_secrets collection.
func NewSecretStore(db *mongo.Database) *SecretStore {
	return &SecretStore{coll: db.Collection(secretsCollection)}
}

// EnsureIndexes is part of the service's start-up sequence like every
// store's. The only lookup is by _id, which every collection indexes
// uniquely, so today there is nothing to create.
func (s *SecretStore) EnsureIndexes(ctx context.Context) error {
	return nil
}

// Get returns workspaceID's secrets, creating them on first use. Concurrent
// first calls, in this process or in others, all return the secrets that
// were stored first: creation is an upsert that only sets fields on insert,
// and every caller reads the stored document back.
func (s *SecretStore) Get(ctx context.Context, workspaceID string) (Secrets, error) {
	if workspaceID == "" {
		return Secrets{}, errors.New("signing: secrets: empty workspace id")
	}
	if v, ok := s.cache.Load(workspaceID); ok {
		return clone(v.(Secrets)), nil
	}
	sec, err := s.load(ctx, workspaceID)
	if errors.Is(err, mongo.ErrNoDocuments) {
		if err := s.createIfAbsent(ctx, workspaceID); err != nil {
			return Secrets{}, err
		}
		sec, err = s.load(ctx, workspaceID)
	}
	if err != nil {
		return Secrets{}, err
	}
	s.cache.Store(workspaceID, sec)
	return clone(sec), nil
}

// Existing returns workspaceID's secrets if they were ever created; ok is
// false otherwise (no token of that workspace can be valid). Unlike Get it
// creates nothing, so a forged token cannot make the store grow.
func (s *SecretStore) Existing(ctx context.Context, workspaceID string) (sec Secrets, ok bool, err error) {
	if v, hit := s.cache.Load(workspaceID); hit {
		return clone(v.(Secrets)), true, nil
	}
	sec, err = s.load(ctx, workspaceID)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return Secrets{}, false, nil
	}
	if err != nil {
		return Secrets{}, false, err
	}
	s.cache.Store(workspaceID, sec)
	return clone(sec), true, nil
}

func (s *SecretStore) load(ctx context.Context, workspaceID string) (Secrets, error) {
	var doc secretsDoc
	err := s.coll.FindOne(ctx, bson.M{"_id": workspaceID}).Decode(&doc)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return Secrets{}, err
	}
	if err != nil {
		return Secrets{}, fmt.Errorf("signing: load secrets of %s: %w", workspaceID, err)
	}
	if len(doc.SignatureSecret) != secretLen || len(doc.JWTSecret) != secretLen {
		return Secrets{}, fmt.Errorf("signing: stored secrets of %s are malformed", workspaceID)
	}
	return Secrets{Signature: doc.SignatureSecret, JWT: doc.JWTSecret}, nil
}

// createIfAbsent inserts freshly generated secrets unless a document exists.
// $setOnInsert leaves an existing document untouched, so a racing caller
// cannot overwrite secrets another caller already returned.
func (s *SecretStore) createIfAbsent(ctx context.Context, workspaceID string) error {
	update := bson.M{"$setOnInsert": bson.M{
		"workspaceId":     workspaceID,
		"signatureSecret": randomSecret(),
		"jwtSecret":       randomSecret(),
		"createdAt":       time.Now().UTC(),
	}}
	_, err := s.coll.UpdateOne(ctx, bson.M{"_id": workspaceID}, update, options.UpdateOne().SetUpsert(true))
	// Two simultaneous upserts can both miss and both insert; the loser gets
	// a duplicate key error, which means the document now exists.
	if err != nil && !mongodb.IsDuplicateKey(err) {
		return fmt.Errorf("signing: create secrets of %s: %w", workspaceID, err)
	}
	return nil
}

// randomSecret uses crypto/rand, whose Read never fails (since Go 1.24 it
// crashes the program rather than return weak randomness).
func randomSecret() []byte {
	b := make([]byte, secretLen)
	_, _ = rand.Read(b)
	return b
}

// clone keeps callers from mutating the cached slices.
func clone(s Secrets) Secrets {
	return Secrets{Signature: bytes.Clone(s.Signature), JWT: bytes.Clone(s.JWT)}
}
