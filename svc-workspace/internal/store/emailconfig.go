package store

import (
	"context"
	"maps"
	"slices"

	"github.com/opencollab/backend/svc-workspace/internal/webhook"
)

const emailConfigsColl = "email_configs"

// emailConfigDoc is a workspace's email service configuration, keyed by
// the workspace id. Triggers are an array of {type, enabled}: event types
// contain dots and must not become field names. The API key is stored
// only sealed, next to its masked form.
type emailConfigDoc struct {
	ID                string       `bson:"_id"`
	WorkspaceID       string       `bson:"workspaceId"`
	Version           int64        `bson:"version"`
	UseEmailService   bool         `bson:"useEmailService"`
	Type              string       `bson:"type"`
	APIKeySealed      string       `bson:"apiKeySealed,omitempty"`
	APIKeyMasked      string       `bson:"apiKeyMasked,omitempty"`
	FromEmail         string       `bson:"fromEmail"`
	FromCompany       string       `bson:"fromCompany"`
	CommentTemplateID string       `bson:"commentTemplateId"`
	TagTemplateID     string       `bson:"tagTemplateId"`
	Triggers          []triggerDoc `bson:"triggers"`
}

type triggerDoc struct {
	Type    string `bson:"type"`
	Enabled bool   `bson:"enabled"`
}

// EmailConfig implements webhook.EmailStore.
func (m *Mongo) EmailConfig(ctx context.Context, workspaceID string) (webhook.EmailConfig, int64, error) {
	var d emailConfigDoc
	if err := findByWorkspace(ctx, m.db.Collection(emailConfigsColl), workspaceID, &d); err != nil {
		return webhook.EmailConfig{}, 0, err
	}
	triggers := make(map[string]bool, len(d.Triggers))
	for _, t := range d.Triggers {
		triggers[t.Type] = t.Enabled
	}
	return webhook.EmailConfig{
		UseEmailService: d.UseEmailService, Type: d.Type,
		APIKeySealed: d.APIKeySealed, APIKeyMasked: d.APIKeyMasked,
		FromEmail: d.FromEmail, FromCompany: d.FromCompany,
		CommentTemplateID: d.CommentTemplateID, TagTemplateID: d.TagTemplateID,
		Triggers: triggers,
	}, d.Version, nil
}

// SaveEmailConfig implements webhook.EmailStore.
func (m *Mongo) SaveEmailConfig(ctx context.Context, workspaceID string, c webhook.EmailConfig, version int64) error {
	triggers := make([]triggerDoc, 0, len(c.Triggers))
	for _, t := range slices.Sorted(maps.Keys(c.Triggers)) {
		triggers = append(triggers, triggerDoc{Type: t, Enabled: c.Triggers[t]})
	}
	return saveVersioned(ctx, m.db.Collection(emailConfigsColl), workspaceID, version, emailConfigDoc{
		ID: workspaceID, WorkspaceID: workspaceID, Version: version + 1,
		UseEmailService: c.UseEmailService, Type: c.Type,
		APIKeySealed: c.APIKeySealed, APIKeyMasked: c.APIKeyMasked,
		FromEmail: c.FromEmail, FromCompany: c.FromCompany,
		CommentTemplateID: c.CommentTemplateID, TagTemplateID: c.TagTemplateID,
		Triggers: triggers,
	})
}
