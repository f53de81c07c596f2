package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/pkg/pagetoken"
)

// PageTokens is the fallback annotations.PageTokenStore used until the
// service is handed the Redis store (pkg/pagetoken): the same contract on a
// collection, expired by a stored
// expiresAt (FerretDB has no TTL indexes) and swept when tokens are saved.
type PageTokens struct {
	coll *mongo.Collection
	now  func() time.Time
}

type storedToken struct {
	Token     string    `bson:"_id"`
	Workspace string    `bson:"workspaceId"`
	Query     string    `bson:"queryKey"`
	Cursor    string    `bson:"cursor"`
	ExpiresAt time.Time `bson:"expiresAt"`
}

// EnsureIndexes creates the index the sweep of expired tokens runs on.
func (p *PageTokens) EnsureIndexes(ctx context.Context) error {
	return mongodb.EnsureIndexes(ctx, p.coll, mongo.IndexModel{
		Keys: bson.D{{Key: "expiresAt", Value: 1}}, Options: options.Index().SetName("expiresAt"),
	})
}

func (p *PageTokens) Save(ctx context.Context, ws, queryKey, cursor string) (string, error) {
	var raw [18]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", fmt.Errorf("page token: %w", err)
	}
	now := p.now()
	if _, err := p.coll.DeleteMany(ctx, bson.M{"expiresAt": bson.M{"$lt": now}}); err != nil {
		return "", fmt.Errorf("sweep page tokens: %w", err)
	}
	t := storedToken{Token: hex.EncodeToString(raw[:]), Workspace: ws, Query: queryKey, Cursor: cursor,
		ExpiresAt: now.Add(pagetoken.DefaultTTL)}
	if _, err := p.coll.InsertOne(ctx, t); err != nil {
		return "", fmt.Errorf("save page token: %w", err)
	}
	return t.Token, nil
}

func (p *PageTokens) Load(ctx context.Context, ws, queryKey, token string) (string, error) {
	var t storedToken
	err := p.coll.FindOne(ctx, bson.M{"_id": token}).Decode(&t)
	if mongodb.IsNotFound(err) || (err == nil && p.now().After(t.ExpiresAt)) {
		return "", api.Errorf(api.InvalidArgument, "pageToken is unknown or expired; start again without a pageToken")
	}
	if err != nil {
		return "", fmt.Errorf("load page token: %w", err)
	}
	if t.Workspace != ws || t.Query != queryKey {
		return "", api.Errorf(api.InvalidArgument, "pageToken does not belong to this query")
	}
	return t.Cursor, nil
}
