package store

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/svc-notify/internal/notify"
)

// configDoc is one user's configuration for a document, or (documentId "")
// their organization-level default. Unset levels are absent.
type configDoc struct {
	WorkspaceID    string `bson:"workspaceId"`
	OrganizationID string `bson:"organizationId"`
	UserID         string `bson:"userId"`
	DocumentID     string `bson:"documentId"`
	Inbox          string `bson:"inbox,omitempty"`
	Email          string `bson:"email,omitempty"`
	Slack          string `bson:"slack,omitempty"`
	UpdatedAt      int64  `bson:"updatedAt"`
}

func (d configDoc) domain() notify.Config {
	return notify.Config{Inbox: notify.Level(d.Inbox), Email: notify.Level(d.Email), Slack: notify.Level(d.Slack)}
}

func configKey(ws, orgID, userID, docID string) bson.D {
	return bson.D{
		{Key: "workspaceId", Value: ws}, {Key: "organizationId", Value: orgID},
		{Key: "userId", Value: userID}, {Key: "documentId", Value: docID},
	}
}

// LoadConfigs implements notify.ConfigStore.
func (m *Mongo) LoadConfigs(ctx context.Context, ws, orgID, userID string, docIDs []string) (map[string]notify.Config, error) {
	cur, err := m.configs.Find(ctx, bson.D{
		{Key: "workspaceId", Value: ws}, {Key: "organizationId", Value: orgID}, {Key: "userId", Value: userID},
		{Key: "documentId", Value: bson.D{{Key: "$in", Value: docIDs}}},
	})
	if err != nil {
		return nil, fmt.Errorf("find configs: %w", err)
	}
	var docs []configDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("read configs: %w", err)
	}
	out := make(map[string]notify.Config, len(docs))
	for _, d := range docs {
		out[d.DocumentID] = d.domain()
	}
	return out, nil
}

// SaveConfigs implements notify.ConfigStore with one unordered bulk of
// upserts.
func (m *Mongo) SaveConfigs(ctx context.Context, ws, orgID string, userIDs, docIDs []string, c notify.Config, at int64) error {
	update := bson.D{{Key: "$set", Value: levelsSet(c, at)}}
	models := make([]mongo.WriteModel, 0, len(userIDs)*len(docIDs))
	for _, u := range userIDs {
		for _, d := range docIDs {
			models = append(models, mongo.NewUpdateOneModel().
				SetFilter(configKey(ws, orgID, u, d)).SetUpdate(update).SetUpsert(true))
		}
	}
	return wrap("save configs", m.bulkUpsert(ctx, m.configs, models))
}

func (m *Mongo) bulkUpsert(ctx context.Context, coll *mongo.Collection, models []mongo.WriteModel) error {
	if len(models) == 0 {
		return nil
	}
	return upsertRetry(func() error {
		_, err := coll.BulkWrite(ctx, models, options.BulkWrite().SetOrdered(false))
		return err
	})
}

// levelsSet sets the levels c names and the time; the others keep their
// stored value.
func levelsSet(c notify.Config, at int64) bson.D {
	set := bson.D{{Key: "updatedAt", Value: at}}
	for _, l := range []struct {
		key   string
		level notify.Level
	}{{"inbox", c.Inbox}, {"email", c.Email}, {"slack", c.Slack}} {
		if l.level != "" {
			set = append(set, bson.E{Key: l.key, Value: string(l.level)})
		}
	}
	return set
}
