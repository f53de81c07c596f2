package store

import (
	"context"

	"github.com/opencollab/backend/svc-workspace/internal/webhook"
)

const webhookConfigsColl = "webhook_configs"

// webhookConfigDoc is a workspace's advanced webhook configuration, keyed
// by the workspace id.
type webhookConfigDoc struct {
	ID                   string `bson:"_id"`
	WorkspaceID          string `bson:"workspaceId"`
	Version              int64  `bson:"version"`
	IsEnabled            bool   `bson:"isEnabled"`
	EncryptData          bool   `bson:"encryptData"`
	EncodeData           bool   `bson:"encodeData"`
	PublicKey            string `bson:"publicKey"`
	EnableDataProtection bool   `bson:"enableDataProtection"`
}

// WebhookConfig implements webhook.ConfigStore.
func (m *Mongo) WebhookConfig(ctx context.Context, workspaceID string) (webhook.Config, int64, error) {
	var d webhookConfigDoc
	if err := findByWorkspace(ctx, m.db.Collection(webhookConfigsColl), workspaceID, &d); err != nil {
		return webhook.Config{}, 0, err
	}
	return webhook.Config{
		IsEnabled: d.IsEnabled, EncryptData: d.EncryptData, EncodeData: d.EncodeData,
		PublicKey: d.PublicKey, EnableDataProtection: d.EnableDataProtection,
	}, d.Version, nil
}

// SaveWebhookConfig implements webhook.ConfigStore.
func (m *Mongo) SaveWebhookConfig(ctx context.Context, workspaceID string, c webhook.Config, version int64) error {
	return saveVersioned(ctx, m.db.Collection(webhookConfigsColl), workspaceID, version, webhookConfigDoc{
		ID: workspaceID, WorkspaceID: workspaceID, Version: version + 1,
		IsEnabled: c.IsEnabled, EncryptData: c.EncryptData, EncodeData: c.EncodeData,
		PublicKey: c.PublicKey, EnableDataProtection: c.EnableDataProtection,
	})
}
