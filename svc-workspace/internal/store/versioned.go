package store

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/svc-workspace/internal/webhook"
)

// saveVersioned stores doc (a per-workspace record keyed by the workspace
// id, its version field already set to version+1) if the stored record is
// still at version; 0 means none is stored yet. A record that moved, or
// that another writer inserted first, is webhook.ErrConflict: the caller
// reads again and retries. No transactions needed, and no update is lost.
func saveVersioned(ctx context.Context, coll *mongo.Collection, workspaceID string, version int64, doc any) error {
	if version == 0 {
		_, err := coll.InsertOne(ctx, doc)
		if mongodb.IsDuplicateKey(err) {
			return webhook.ErrConflict
		}
		if err != nil {
			return fmt.Errorf("insert %s: %w", coll.Name(), err)
		}
		return nil
	}
	res, err := coll.ReplaceOne(ctx, bson.M{"_id": workspaceID, "workspaceId": workspaceID, "version": version}, doc)
	if err != nil {
		return fmt.Errorf("replace %s: %w", coll.Name(), err)
	}
	if res.MatchedCount == 0 {
		return webhook.ErrConflict
	}
	return nil
}

// findByWorkspace decodes the per-workspace record of workspaceID into out;
// webhook.ErrNotFound when there is none.
func findByWorkspace(ctx context.Context, coll *mongo.Collection, workspaceID string, out any) error {
	err := coll.FindOne(ctx, bson.M{"_id": workspaceID, "workspaceId": workspaceID}).Decode(out)
	if mongodb.IsNotFound(err) {
		return webhook.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("find %s: %w", coll.Name(), err)
	}
	return nil
}
