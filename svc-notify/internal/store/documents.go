package store

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/svc-notify/internal/notify"
)

// migrationDoc records a completed document migration.
type migrationDoc struct {
	WorkspaceID    string `bson:"workspaceId"`
	MigrationID    string `bson:"migrationId"`
	OrganizationID string `bson:"organizationId"`
	DocumentID     string `bson:"documentId"`
	NewDocumentID  string `bson:"newDocumentId"`
	Moved          int    `bson:"moved"`
	CompletedAt    int64  `bson:"completedAt"`
}

func documentFilter(ws, orgID, docID string) bson.D {
	return bson.D{{Key: "workspaceId", Value: ws}, {Key: "organizationId", Value: orgID}, {Key: "documentId", Value: docID}}
}

// MoveDocument implements notify.DocumentStore. Each step only moves what
// is still under the old id, so a re-run after a partial one finishes the
// job. Moved notifications get a new revision, so an update that read one
// before the move retries instead of writing over it.
func (m *Mongo) MoveDocument(ctx context.Context, ws, orgID, from, to string) (int, error) {
	res, err := m.notifications.UpdateMany(ctx, documentFilter(ws, orgID, from),
		bson.D{{Key: "$set", Value: bson.D{{Key: "documentId", Value: to}, {Key: "rev", Value: newRev()}}}})
	if err != nil {
		return 0, fmt.Errorf("move notifications: %w", err)
	}
	configs, err := m.moveConfigs(ctx, ws, orgID, from, to)
	if err != nil {
		return 0, err
	}
	return int(res.ModifiedCount) + configs, nil
}

// moveConfigs copies the document's configurations to the new id, then
// deletes the copied ones (a configuration set on the old id meanwhile
// stays for the next run).
func (m *Mongo) moveConfigs(ctx context.Context, ws, orgID, from, to string) (int, error) {
	cur, err := m.configs.Find(ctx, documentFilter(ws, orgID, from))
	if err != nil {
		return 0, fmt.Errorf("find configs to move: %w", err)
	}
	var docs []configDoc
	if err := cur.All(ctx, &docs); err != nil {
		return 0, fmt.Errorf("read configs to move: %w", err)
	}
	if len(docs) == 0 {
		return 0, nil
	}
	models := make([]mongo.WriteModel, 0, len(docs))
	users := make([]string, 0, len(docs))
	for _, d := range docs {
		models = append(models, mongo.NewUpdateOneModel().SetFilter(configKey(ws, orgID, d.UserID, to)).
			SetUpdate(bson.D{{Key: "$set", Value: levelsSet(d.domain(), d.UpdatedAt)}}).SetUpsert(true))
		users = append(users, d.UserID)
	}
	if err := m.bulkUpsert(ctx, m.configs, models); err != nil {
		return 0, fmt.Errorf("copy configs: %w", err)
	}
	filter := append(documentFilter(ws, orgID, from), bson.E{Key: "userId", Value: bson.D{{Key: "$in", Value: users}}})
	if _, err := m.configs.DeleteMany(ctx, filter); err != nil {
		return 0, fmt.Errorf("delete moved configs: %w", err)
	}
	return len(docs), nil
}

// DocumentHasData implements notify.DocumentStore.
func (m *Mongo) DocumentHasData(ctx context.Context, ws, orgID, docID string) (bool, error) {
	for _, coll := range []*mongo.Collection{m.notifications, m.configs} {
		err := coll.FindOne(ctx, documentFilter(ws, orgID, docID),
			options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 1}})).Err()
		if err == nil {
			return true, nil
		}
		if !mongodb.IsNotFound(err) {
			return false, fmt.Errorf("look for document data: %w", err)
		}
	}
	return false, nil
}

// FinishedMigration implements notify.DocumentStore.
func (m *Mongo) FinishedMigration(ctx context.Context, ws, migrationID string) (notify.Migration, bool, error) {
	var d migrationDoc
	err := m.migrations.FindOne(ctx, bson.D{{Key: "workspaceId", Value: ws}, {Key: "migrationId", Value: migrationID}}).Decode(&d)
	if mongodb.IsNotFound(err) {
		return notify.Migration{}, false, nil
	}
	if err != nil {
		return notify.Migration{}, false, fmt.Errorf("find migration: %w", err)
	}
	return notify.Migration{ID: d.MigrationID, OrganizationID: d.OrganizationID, DocumentID: d.DocumentID, NewDocumentID: d.NewDocumentID}, true, nil
}

// RecordMigration implements notify.DocumentStore; the first record of a
// migration id wins.
func (m *Mongo) RecordMigration(ctx context.Context, ws string, mig notify.Migration, moved int, at int64) error {
	doc := migrationDoc{
		WorkspaceID: ws, MigrationID: mig.ID, OrganizationID: mig.OrganizationID,
		DocumentID: mig.DocumentID, NewDocumentID: mig.NewDocumentID, Moved: moved, CompletedAt: at,
	}
	key := bson.D{{Key: "workspaceId", Value: ws}, {Key: "migrationId", Value: mig.ID}}
	return wrap("record migration", upsertRetry(func() error {
		_, err := m.migrations.UpdateOne(ctx, key, bson.D{{Key: "$setOnInsert", Value: doc}}, options.UpdateOne().SetUpsert(true))
		return err
	}))
}
