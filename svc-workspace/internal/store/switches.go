package store

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/pkg/mongodb"
)

// FeatureSwitch implements webhook.Switches: the switch of f as an
// operator set it. An unknown workspace has no switch set.
func (m *Mongo) FeatureSwitch(ctx context.Context, workspaceID string, f features.Name) (on, set bool, err error) {
	var d workspaceDoc
	err = m.workspaces.FindOne(ctx, bson.M{"_id": workspaceID},
		options.FindOne().SetProjection(bson.M{featuresPath + string(f): 1})).Decode(&d)
	if mongodb.IsNotFound(err) {
		return false, false, nil
	}
	if err != nil {
		return false, false, fmt.Errorf("find workspace: %w", err)
	}
	if d.Settings == nil {
		return false, false, nil
	}
	on, set = d.Settings.Features[string(f)]
	return on, set, nil
}
