package store

import (
	"context"
	"encoding/json"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/svc-memory/internal/agents"
)

const (
	agentsColl        = "agents"
	agentVersionsColl = "agent_versions"
	builtinStateColl  = "builtin_state"
)

// Agents is the MongoDB store of agents (agents.Store). Metadata and
// version configurations are kept as JSON text: they are free-form, read
// back exactly as sent, and never queried inside.
type Agents struct {
	agents   *mongo.Collection
	versions *mongo.Collection
	builtins *mongo.Collection
}

// NewAgents returns the store over db. Call EnsureIndexes before use.
func NewAgents(db *mongo.Database) *Agents {
	return &Agents{agents: db.Collection(agentsColl), versions: db.Collection(agentVersionsColl), builtins: db.Collection(builtinStateColl)}
}

// EnsureIndexes creates the indexes; safe at every start.
func (s *Agents) EnsureIndexes(ctx context.Context) error {
	if err := mongodb.EnsureIndexes(ctx, s.agents, mongo.IndexModel{
		Keys: keys("workspaceId", "agentId"), Options: options.Index().SetUnique(true).SetName("workspace_agent_unique"),
	}); err != nil {
		return err
	}
	if err := mongodb.EnsureIndexes(ctx, s.versions, mongo.IndexModel{
		Keys: keys("workspaceId", "agentId", "version"), Options: options.Index().SetUnique(true).SetName("workspace_agent_version_unique"),
	}); err != nil {
		return err
	}
	return mongodb.EnsureIndexes(ctx, s.builtins, mongo.IndexModel{
		Keys: keys("workspaceId", "agentId"), Options: options.Index().SetUnique(true).SetName("workspace_agent_unique"),
	})
}

type agentDoc struct {
	WorkspaceID string `bson:"workspaceId"`
	AgentID     string `bson:"agentId"`
	Name        string `bson:"name"`
	Description string `bson:"description"`
	Enabled     bool   `bson:"enabled"`
	ManagedBy   string `bson:"managedBy"`
	Version     int    `bson:"version"`
	Metadata    string `bson:"metadata,omitempty"`
	CreatedAt   int64  `bson:"createdAt"`
}

func (d agentDoc) agent() agents.Agent {
	a := agents.Agent{ID: d.AgentID, Name: d.Name, Description: d.Description, Enabled: d.Enabled,
		Version: d.Version, CreatedAt: d.CreatedAt}
	if d.Metadata != "" {
		a.Metadata = json.RawMessage(d.Metadata)
	}
	return a
}

type versionDoc struct {
	WorkspaceID string `bson:"workspaceId"`
	AgentID     string `bson:"agentId"`
	Version     int    `bson:"version"`
	Config      string `bson:"config"`
	CreatedAt   int64  `bson:"createdAt"`
}

func (d versionDoc) version() agents.Version {
	return agents.Version{AgentID: d.AgentID, Version: d.Version, Config: json.RawMessage(d.Config), CreatedAt: d.CreatedAt}
}

func agentKey(ws, id string) bson.D {
	return bson.D{{Key: "workspaceId", Value: ws}, {Key: "agentId", Value: id}}
}

// CountCustom implements agents.Store.
func (s *Agents) CountCustom(ctx context.Context, ws string) (int64, error) {
	n, err := s.agents.CountDocuments(ctx, bson.D{{Key: "workspaceId", Value: ws}})
	if err != nil {
		return 0, fmt.Errorf("count agents: %w", err)
	}
	return n, nil
}

// Create implements agents.Store.
func (s *Agents) Create(ctx context.Context, ws string, a agents.Agent, v agents.Version) error {
	if err := s.AddVersion(ctx, ws, v); err != nil {
		return err
	}
	doc := agentDoc{WorkspaceID: ws, AgentID: a.ID, Name: a.Name, Description: a.Description, Enabled: a.Enabled,
		ManagedBy: "customer", Version: a.Version, Metadata: compact(a.Metadata), CreatedAt: a.CreatedAt}
	if _, err := s.agents.InsertOne(ctx, doc); err != nil {
		return fmt.Errorf("insert agent: %w", err)
	}
	return nil
}

// Find implements agents.Store.
func (s *Agents) Find(ctx context.Context, ws, id string) (agents.Agent, bool, error) {
	var d agentDoc
	err := s.agents.FindOne(ctx, agentKey(ws, id)).Decode(&d)
	if mongodb.IsNotFound(err) {
		return agents.Agent{}, false, nil
	}
	if err != nil {
		return agents.Agent{}, false, fmt.Errorf("find agent: %w", err)
	}
	return d.agent(), true, nil
}

// List implements agents.Store.
func (s *Agents) List(ctx context.Context, ws string) ([]agents.Agent, error) {
	cur, err := s.agents.Find(ctx, bson.D{{Key: "workspaceId", Value: ws}})
	if err != nil {
		return nil, fmt.Errorf("list agents: %w", err)
	}
	var docs []agentDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("read agents: %w", err)
	}
	out := make([]agents.Agent, len(docs))
	for i, d := range docs {
		out[i] = d.agent()
	}
	return out, nil
}

// UpdateIdentity implements agents.Store.
func (s *Agents) UpdateIdentity(ctx context.Context, ws, id string, p agents.IdentityPatch) (bool, error) {
	set := bson.M{}
	if p.Name != nil {
		set["name"] = *p.Name
	}
	if p.Description != nil {
		set["description"] = *p.Description
	}
	if p.Enabled != nil {
		set["enabled"] = *p.Enabled
	}
	res, err := s.agents.UpdateOne(ctx, agentKey(ws, id), bson.M{"$set": set})
	if err != nil {
		return false, fmt.Errorf("update agent: %w", err)
	}
	return res.MatchedCount > 0, nil
}

// Delete implements agents.Store: the root record first, so a failure
// half way leaves no visible agent, then its versions (a retry finishes).
func (s *Agents) Delete(ctx context.Context, ws, id string) error {
	if _, err := s.agents.DeleteOne(ctx, agentKey(ws, id)); err != nil {
		return fmt.Errorf("delete agent: %w", err)
	}
	if _, err := s.versions.DeleteMany(ctx, agentKey(ws, id)); err != nil {
		return fmt.Errorf("delete agent versions: %w", err)
	}
	return nil
}

// LatestVersion implements agents.Store.
func (s *Agents) LatestVersion(ctx context.Context, ws, id string) (agents.Version, bool, error) {
	var d versionDoc
	err := s.versions.FindOne(ctx, agentKey(ws, id), options.FindOne().SetSort(bson.D{{Key: "version", Value: -1}})).Decode(&d)
	if mongodb.IsNotFound(err) {
		return agents.Version{}, false, nil
	}
	if err != nil {
		return agents.Version{}, false, fmt.Errorf("find agent version: %w", err)
	}
	return d.version(), true, nil
}

// AddVersion implements agents.Store.
func (s *Agents) AddVersion(ctx context.Context, ws string, v agents.Version) error {
	_, err := s.versions.InsertOne(ctx, versionDoc{WorkspaceID: ws, AgentID: v.AgentID, Version: v.Version,
		Config: string(v.Config), CreatedAt: v.CreatedAt})
	if mongodb.IsDuplicateKey(err) {
		return agents.ErrVersionTaken
	}
	if err != nil {
		return fmt.Errorf("insert agent version: %w", err)
	}
	return nil
}

// PointTo implements agents.Store.
func (s *Agents) PointTo(ctx context.Context, ws, id string, v int, metadata json.RawMessage) error {
	filter := append(agentKey(ws, id), bson.E{Key: "version", Value: bson.M{"$lt": v}})
	set := bson.M{"version": v}
	if metadata != nil {
		set["metadata"] = compact(metadata)
	}
	if _, err := s.agents.UpdateOne(ctx, filter, bson.M{"$set": set}); err != nil {
		return fmt.Errorf("update agent version: %w", err)
	}
	return nil
}

// Versions implements agents.Store.
func (s *Agents) Versions(ctx context.Context, ws, id string) ([]agents.Version, error) {
	cur, err := s.versions.Find(ctx, agentKey(ws, id), options.Find().SetSort(bson.D{{Key: "version", Value: -1}}))
	if err != nil {
		return nil, fmt.Errorf("list agent versions: %w", err)
	}
	var docs []versionDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("read agent versions: %w", err)
	}
	out := make([]agents.Version, len(docs))
	for i, d := range docs {
		out[i] = d.version()
	}
	return out, nil
}

type builtinDoc struct {
	AgentID string `bson:"agentId"`
	Enabled bool   `bson:"enabled"`
}

// BuiltinEnabled implements agents.Store.
func (s *Agents) BuiltinEnabled(ctx context.Context, ws string) (map[string]bool, error) {
	cur, err := s.builtins.Find(ctx, bson.D{{Key: "workspaceId", Value: ws}})
	if err != nil {
		return nil, fmt.Errorf("list built-in agent state: %w", err)
	}
	var docs []builtinDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("read built-in agent state: %w", err)
	}
	out := make(map[string]bool, len(docs))
	for _, d := range docs {
		out[d.AgentID] = d.Enabled
	}
	return out, nil
}

// SetBuiltinEnabled implements agents.Store.
func (s *Agents) SetBuiltinEnabled(ctx context.Context, ws, id string, enabled bool) error {
	_, err := s.builtins.UpdateOne(ctx, agentKey(ws, id), bson.M{"$set": bson.M{"enabled": enabled}}, options.UpdateOne().SetUpsert(true))
	if err != nil {
		return fmt.Errorf("set built-in agent state: %w", err)
	}
	return nil
}

// compact returns JSON text without insignificant whitespace ("" for nil).
func compact(raw json.RawMessage) string {
	if raw == nil {
		return ""
	}
	var buf []byte
	if b, err := json.Marshal(raw); err == nil {
		buf = b
	}
	return string(buf)
}
