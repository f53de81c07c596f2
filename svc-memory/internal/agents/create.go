package agents

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/opencollab/backend/pkg/api"
)

// idPrefix marks generated custom agent ids (built-in ids never carry it).
const idPrefix = "agent_"

// Create validates a custom agent (§12) and stores it as version 1. data
// is the request's data object: identity fields go on the root record,
// everything else (behavioural and extra fields) into the version.
func (s *Service) Create(ctx context.Context, ws string, data map[string]json.RawMessage) (string, error) {
	in := object(data)
	if in.present("managedBy") {
		return "", invalid("field managedBy cannot be set: custom agents are managed by the customer")
	}
	a, err := identityOf(in)
	if err != nil {
		return "", err
	}
	cfg := object{}
	for k, v := range in {
		if !isIdentityField(k) {
			cfg[k] = v
		}
	}
	dropSupportedVariables(cfg)
	if err := validateConfig(cfg); err != nil {
		return "", err
	}
	n, err := s.store.CountCustom(ctx, ws)
	if err != nil {
		return "", err
	}
	if n >= MaxCustomAgents {
		return "", api.Errorf(api.ResourceExhausted, "this workspace has reached its limit of %d custom agents", MaxCustomAgents)
	}
	config, err := json.Marshal(cfg)
	if err != nil {
		return "", fmt.Errorf("encode agent configuration: %w", err)
	}
	a.ID = idPrefix + strings.ToLower(rand.Text())
	a.Version, a.CreatedAt = 1, s.now().UnixMilli()
	v := Version{AgentID: a.ID, Version: 1, Config: config, CreatedAt: a.CreatedAt}
	if err := s.store.Create(ctx, ws, a, v); err != nil {
		return "", err
	}
	return a.ID, nil
}

// identityOf reads and checks the identity fields of create.
func identityOf(in object) (Agent, error) {
	name, err := in.requiredString("name", "name")
	if err != nil {
		return Agent{}, err
	}
	description, err := in.requiredString("description", "description")
	if err != nil {
		return Agent{}, err
	}
	enabled, err := in.bool("enabled", "enabled")
	if err != nil {
		return Agent{}, err
	}
	if enabled == nil {
		return Agent{}, invalid("field enabled is required")
	}
	a := Agent{Name: name, Description: description, Enabled: *enabled}
	if in.present("metadata") {
		if err := validateMetadata(in["metadata"]); err != nil {
			return Agent{}, err
		}
		a.Metadata = in["metadata"]
	}
	return a, nil
}
