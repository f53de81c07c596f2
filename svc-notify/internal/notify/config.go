package notify

import (
	"context"
	"slices"

	"github.com/opencollab/backend/pkg/api"
)

// Level is how much of a channel a user gets.
type Level string

// Levels.
const (
	LevelAll  Level = "ALL"
	LevelMine Level = "MINE" // only activity involving the user
	LevelNone Level = "NONE"
)

// Config is a user's notification configuration. An empty level is unset
// and falls back to the next configuration (see GetConfigs).
type Config struct {
	Inbox Level
	Email Level
	Slack Level
}

// DefaultConfig is what a user who never set anything gets.
var DefaultConfig = Config{Inbox: LevelAll, Email: LevelAll, Slack: LevelAll}

// MaxConfigDocuments is the most documentIds config/get reads at once.
const MaxConfigDocuments = 30

// orgLevel is the document id of a user's organization-level default.
const orgLevel = ""

// orElse fills c's unset levels from d.
func (c Config) orElse(d Config) Config {
	if c.Inbox == "" {
		c.Inbox = d.Inbox
	}
	if c.Email == "" {
		c.Email = d.Email
	}
	if c.Slack == "" {
		c.Slack = d.Slack
	}
	return c
}

// IsEmpty reports whether c sets no level.
func (c Config) IsEmpty() bool { return c == Config{} }

// DocumentConfig is the configuration in force for a user on a document.
type DocumentConfig struct {
	DocumentID string
	Config     Config
}

// GetConfigs returns userID's configuration for each document, in the order
// given. Each level comes from the document's configuration, else the
// user's organization-level default, else DefaultConfig.
func (s *Service) GetConfigs(ctx context.Context, ws, orgID, userID string, docIDs []string) ([]DocumentConfig, error) {
	if len(docIDs) > MaxConfigDocuments {
		return nil, api.Errorf(api.InvalidArgument, "field documentIds accepts at most %d items", MaxConfigDocuments)
	}
	if err := nonBlank("documentIds", docIDs); err != nil {
		return nil, err
	}
	stored, err := s.store.LoadConfigs(ctx, ws, orgID, userID, append(slices.Clone(docIDs), orgLevel))
	if err != nil {
		return nil, err
	}
	orgDefault := stored[orgLevel].orElse(DefaultConfig)
	out := make([]DocumentConfig, 0, len(docIDs))
	for _, id := range docIDs {
		out = append(out, DocumentConfig{DocumentID: id, Config: stored[id].orElse(orgDefault)})
	}
	return out, nil
}

// SetConfigs sets the levels c names for every user on every document;
// without documents, as the users' organization-level default.
func (s *Service) SetConfigs(ctx context.Context, ws, orgID string, userIDs, docIDs []string, c Config) error {
	if c.IsEmpty() {
		return api.Errorf(api.InvalidArgument, "field config needs at least one of inbox, email, slack")
	}
	if err := nonBlank("userIds", userIDs); err != nil {
		return err
	}
	if err := nonBlank("documentIds", docIDs); err != nil {
		return err
	}
	docIDs = sortedSet(docIDs)
	if len(docIDs) == 0 {
		docIDs = []string{orgLevel}
	}
	return s.store.SaveConfigs(ctx, ws, orgID, sortedSet(userIDs), docIDs, c, s.now().UnixMilli())
}

// nonBlank refuses blank ids, which would name nothing (or, for a
// document, the organization-level default).
func nonBlank(field string, ids []string) error {
	for i, id := range ids {
		if id == "" {
			return api.Errorf(api.InvalidArgument, "field %s[%d] must not be empty", field, i)
		}
	}
	return nil
}
