package agents

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/opencollab/backend/pkg/api"
)

// versionAttempts bounds retries when concurrent version updates race for
// the same number.
const versionAttempts = 5

// UpdateVersion creates version N+1 of a custom agent's behaviour: each
// top-level block sent merges onto the latest version's (one level deep:
// nested objects and arrays are replaced wholesale), other fields replace
// theirs, and the result must pass create's rules. metadata, when sent,
// replaces the agent's metadata. Returns the new version number.
func (s *Service) UpdateVersion(ctx context.Context, ws, id string, data map[string]json.RawMessage) (int, error) {
	if _, ok := builtin(id); ok {
		return 0, api.Errorf(api.InvalidArgument, "built-in agents have no versions; use /v2/agents/update to enable or disable them")
	}
	in := object(data)
	if in.present("managedBy") {
		return 0, invalid("field managedBy cannot be set: custom agents are managed by the customer")
	}
	var metadata json.RawMessage
	if in.present("metadata") {
		if err := validateMetadata(in["metadata"]); err != nil {
			return 0, err
		}
		metadata = in["metadata"]
	}
	changes := object{}
	for k, v := range in {
		if !isIdentityField(k) {
			changes[k] = v
		}
	}
	for range versionAttempts {
		v, err := s.nextVersion(ctx, ws, id, changes)
		if err != nil {
			return 0, err
		}
		err = s.store.AddVersion(ctx, ws, v)
		if errors.Is(err, ErrVersionTaken) {
			continue
		}
		if err != nil {
			return 0, err
		}
		if err := s.store.PointTo(ctx, ws, id, v.Version, metadata); err != nil {
			return 0, err
		}
		return v.Version, nil
	}
	return 0, api.Errorf(api.Unavailable, "agent %q is being updated concurrently; retry", id)
}

// nextVersion builds the version after the latest stored one.
func (s *Service) nextVersion(ctx context.Context, ws, id string, changes object) (Version, error) {
	if _, found, err := s.store.Find(ctx, ws, id); err != nil || !found {
		if err == nil {
			err = notFound(id)
		}
		return Version{}, err
	}
	latest, _, err := s.store.LatestVersion(ctx, ws, id)
	if err != nil {
		return Version{}, err
	}
	base := object{}
	if len(latest.Config) > 0 {
		if err := json.Unmarshal(latest.Config, &base); err != nil {
			return Version{}, fmt.Errorf("decode agent configuration: %w", err)
		}
	}
	merged := mergeOneLevel(base, changes)
	dropSupportedVariables(merged)
	if err := validateConfig(merged); err != nil {
		return Version{}, err
	}
	config, err := json.Marshal(merged)
	if err != nil {
		return Version{}, fmt.Errorf("encode agent configuration: %w", err)
	}
	return Version{AgentID: id, Version: latest.Version + 1, Config: config, CreatedAt: s.now().UnixMilli()}, nil
}

// mergeOneLevel overlays changes on base: an object sent for an object
// block merges key by key (each key's value replaced wholesale); anything
// else replaces the field, and null removes it.
func mergeOneLevel(base, changes object) object {
	for k, v := range changes {
		if !changes.present(k) {
			delete(base, k)
			continue
		}
		var from, to object
		if json.Unmarshal(base[k], &from) == nil && from != nil && json.Unmarshal(v, &to) == nil && to != nil {
			for nk, nv := range to {
				from[nk] = nv
			}
			base[k], _ = json.Marshal(from)
			continue
		}
		base[k] = v
	}
	return base
}

// ListVersions returns the agent's versions newest first, each with its
// behavioural fields (secrets redacted). An unknown or built-in agent has
// none.
func (s *Service) ListVersions(ctx context.Context, ws, id string) ([]map[string]any, error) {
	out := []map[string]any{}
	if _, ok := builtin(id); ok {
		return out, nil
	}
	versions, err := s.store.Versions(ctx, ws, id)
	if err != nil {
		return nil, err
	}
	for _, v := range versions {
		row := map[string]any{}
		if err := json.Unmarshal(redact(v.Config), &row); err != nil {
			return nil, fmt.Errorf("decode agent configuration: %w", err)
		}
		row["id"], row["version"], row["createdAt"] = fmt.Sprintf("v%d", v.Version), v.Version, v.CreatedAt
		out = append(out, row)
	}
	return out, nil
}
