package store

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/svc-workspace/internal/workspace"
)

// featuresPath is where a workspace record keeps its feature switches.
const featuresPath = "settings.features."

// WorkspaceByID implements workspace.Store.
func (m *Mongo) WorkspaceByID(ctx context.Context, id string) (workspace.Workspace, error) {
	var d workspaceDoc
	err := m.workspaces.FindOne(ctx, bson.M{"_id": id}).Decode(&d)
	if mongodb.IsNotFound(err) {
		return workspace.Workspace{}, workspace.ErrNotFound
	}
	if err != nil {
		return workspace.Workspace{}, fmt.Errorf("find workspace: %w", err)
	}
	return d.toWorkspace(), nil
}

// SetFeatureSwitches implements workspace.Store. One $set per switch on the
// workspace record is atomic and leaves the other switches alone, so two
// operators changing different switches at once both win.
func (m *Mongo) SetFeatureSwitches(ctx context.Context, workspaceID string, switches map[features.Name]bool) (workspace.Workspace, error) {
	set := bson.M{}
	for name, on := range switches {
		set[featuresPath+string(name)] = on
	}
	var d workspaceDoc
	err := m.workspaces.FindOneAndUpdate(ctx, bson.M{"_id": workspaceID}, bson.M{"$set": set},
		options.FindOneAndUpdate().SetReturnDocument(options.After)).Decode(&d)
	if mongodb.IsNotFound(err) {
		return workspace.Workspace{}, workspace.ErrNotFound
	}
	if err != nil {
		return workspace.Workspace{}, fmt.Errorf("update feature switches: %w", err)
	}
	return d.toWorkspace(), nil
}

// SaveDomains implements workspace.Store: the list is written only if its
// version is still fromVersion (0: never written), so two concurrent
// changes cannot lose each other's entries, without transactions.
func (m *Mongo) SaveDomains(ctx context.Context, workspaceID string, fromVersion int64, domains []string) error {
	filter := bson.M{"_id": workspaceID, "settings.domainsVersion": fromVersion}
	if fromVersion == 0 {
		filter = bson.M{"_id": workspaceID, "settings.domainsVersion": bson.M{"$exists": false}}
	}
	res, err := m.workspaces.UpdateOne(ctx, filter, bson.M{"$set": bson.M{
		"settings.allowedDomains": domains, "settings.domainsVersion": fromVersion + 1,
	}})
	if err != nil {
		return fmt.Errorf("save allowed domains: %w", err)
	}
	if res.MatchedCount == 1 {
		return nil
	}
	if _, err := m.WorkspaceByID(ctx, workspaceID); err != nil {
		return err // ErrNotFound, or the read's failure
	}
	return workspace.ErrConflict
}
