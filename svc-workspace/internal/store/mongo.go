// Package store persists workspaces, auth tokens and the webhook and email
// configuration in MongoDB and talks to the credential cache in Redis.
package store

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/svc-workspace/internal/workspace"
)

// Collection names.
const (
	workspacesColl = "workspaces"
	tokensColl     = "auth_tokens"
)

// Mongo is the MongoDB store of the workspace service.
type Mongo struct {
	db         *mongo.Database
	workspaces *mongo.Collection
	tokens     *mongo.Collection
}

// NewMongo returns a store over db. Call EnsureIndexes before serving.
func NewMongo(db *mongo.Database) *Mongo {
	return &Mongo{db: db, workspaces: db.Collection(workspacesColl), tokens: db.Collection(tokensColl)}
}

// workspaceDoc is a workspace record; later settings become further fields
// of Settings.
type workspaceDoc struct {
	ID        string       `bson:"_id"`
	APIKey    string       `bson:"apiKey"`
	Name      string       `bson:"name"`
	CreatedAt time.Time    `bson:"createdAt"`
	Settings  *settingsDoc `bson:"settings,omitempty"`
}

// settingsDoc is the workspace configuration operators set. Features holds
// only the switches ever set: a missing one means enabled.
type settingsDoc struct {
	Features map[string]bool `bson:"features,omitempty"`
	// AllowedDomains and DomainsVersion: domains/add|delete.
	AllowedDomains []string `bson:"allowedDomains,omitempty"`
	DomainsVersion int64    `bson:"domainsVersion,omitempty"`
}

func (d workspaceDoc) toWorkspace() workspace.Workspace {
	w := workspace.Workspace{ID: d.ID, APIKey: d.APIKey, Name: d.Name, CreatedAt: d.CreatedAt}
	if d.Settings != nil {
		w.Domains, w.DomainsVersion = d.Settings.AllowedDomains, d.Settings.DomainsVersion
	}
	if d.Settings != nil && len(d.Settings.Features) > 0 {
		w.Switches = make(map[features.Name]bool, len(d.Settings.Features))
		for name, on := range d.Settings.Features {
			w.Switches[features.Name(name)] = on
		}
	}
	return w
}

// tokenDoc is a live auth token, keyed by its SHA-256 hash.
type tokenDoc struct {
	Hash        string    `bson:"_id"`
	WorkspaceID string    `bson:"workspaceId"`
	CreatedAt   time.Time `bson:"createdAt"`
}

// EnsureIndexes creates the indexes; safe at every start.
func (m *Mongo) EnsureIndexes(ctx context.Context) error {
	if err := mongodb.EnsureIndexes(ctx, m.workspaces, mongo.IndexModel{
		Keys:    bson.D{{Key: "apiKey", Value: 1}},
		Options: options.Index().SetUnique(true).SetName("apiKey_unique"),
	}); err != nil {
		return err
	}
	if err := mongodb.EnsureIndexes(ctx, m.tokens, mongo.IndexModel{
		Keys:    bson.D{{Key: "workspaceId", Value: 1}},
		Options: options.Index().SetName("workspaceId"),
	}); err != nil {
		return err
	}
	return m.ensureWebhookIndexes(ctx)
}

// Ping checks the database is reachable (readiness).
func (m *Mongo) Ping(ctx context.Context) error {
	return m.db.Client().Ping(ctx, nil)
}

// InsertWorkspace implements workspace.Store.
func (m *Mongo) InsertWorkspace(ctx context.Context, w workspace.Workspace) error {
	_, err := m.workspaces.InsertOne(ctx, workspaceDoc{ID: w.ID, APIKey: w.APIKey, Name: w.Name, CreatedAt: w.CreatedAt})
	if mongodb.IsDuplicateKey(err) {
		return workspace.ErrDuplicate
	}
	if err != nil {
		return fmt.Errorf("insert workspace: %w", err)
	}
	return nil
}

// WorkspaceByAPIKey implements workspace.Store.
func (m *Mongo) WorkspaceByAPIKey(ctx context.Context, apiKey string) (workspace.Workspace, error) {
	var d workspaceDoc
	err := m.workspaces.FindOne(ctx, bson.M{"apiKey": apiKey}).Decode(&d)
	if mongodb.IsNotFound(err) {
		return workspace.Workspace{}, workspace.ErrNotFound
	}
	if err != nil {
		return workspace.Workspace{}, fmt.Errorf("find workspace: %w", err)
	}
	return d.toWorkspace(), nil
}

// AddToken implements workspace.Store. A plain insert keyed by the hash is
// idempotent: a duplicate is fine when the existing token is the same
// workspace's (a retry, or another replica bootstrapping at once).
func (m *Mongo) AddToken(ctx context.Context, workspaceID, tokenHash string, at time.Time) error {
	_, err := m.tokens.InsertOne(ctx, tokenDoc{Hash: tokenHash, WorkspaceID: workspaceID, CreatedAt: at})
	if err == nil {
		return nil
	}
	if !mongodb.IsDuplicateKey(err) {
		return fmt.Errorf("insert token: %w", err)
	}
	var existing tokenDoc
	if err := m.tokens.FindOne(ctx, bson.M{"_id": tokenHash}).Decode(&existing); err != nil {
		return fmt.Errorf("read existing token: %w", err)
	}
	if existing.WorkspaceID != workspaceID {
		return workspace.ErrDuplicate
	}
	return nil
}

// RevokeToken implements workspace.Store.
func (m *Mongo) RevokeToken(ctx context.Context, workspaceID, tokenHash string) error {
	res, err := m.tokens.DeleteOne(ctx, bson.M{"_id": tokenHash, "workspaceId": workspaceID})
	if err != nil {
		return fmt.Errorf("delete token: %w", err)
	}
	if res.DeletedCount == 0 {
		return workspace.ErrNotFound
	}
	return nil
}

// TokenHashes implements workspace.Store, oldest token first.
func (m *Mongo) TokenHashes(ctx context.Context, workspaceID string) ([]string, error) {
	cur, err := m.tokens.Find(ctx, bson.M{"workspaceId": workspaceID},
		options.Find().SetSort(bson.D{{Key: "createdAt", Value: 1}, {Key: "_id", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("find tokens: %w", err)
	}
	var docs []tokenDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("read tokens: %w", err)
	}
	hashes := make([]string, 0, len(docs))
	for _, d := range docs {
		hashes = append(hashes, d.Hash)
	}
	return hashes, nil
}
