package agents

import (
	"context"
	"strings"

	"github.com/opencollab/backend/pkg/api"
)

// Update changes identity fields without creating a version
// (rest-interface /v2/agents/update). A built-in agent takes only enabled
// (name and description are silently ignored) and needs it; a custom
// agent takes any of the three, and none is a successful no-op.
func (s *Service) Update(ctx context.Context, ws, id string, p IdentityPatch) error {
	if _, ok := builtin(id); ok {
		if p.Enabled == nil {
			return api.Errorf(api.InvalidArgument, "field enabled is required for built-in agents; only enabled can be changed")
		}
		return s.store.SetBuiltinEnabled(ctx, ws, id, *p.Enabled)
	}
	if p.Name != nil && strings.TrimSpace(*p.Name) == "" {
		return api.Errorf(api.InvalidArgument, "field name must not be empty")
	}
	if p.empty() {
		_, found, err := s.store.Find(ctx, ws, id)
		if err == nil && !found {
			err = notFound(id)
		}
		return err
	}
	found, err := s.store.UpdateIdentity(ctx, ws, id, p)
	if err == nil && !found {
		err = notFound(id)
	}
	return err
}

func notFound(id string) error { return api.Errorf(api.NotFound, "agent %q does not exist", id) }

// Delete removes a custom agent and all its versions. Deleting an unknown
// agent succeeds (idempotent); built-in agents cannot be deleted.
func (s *Service) Delete(ctx context.Context, ws, id string) error {
	if _, ok := builtin(id); ok {
		return api.Errorf(api.InvalidArgument, "built-in agents cannot be deleted")
	}
	return s.store.Delete(ctx, ws, id)
}
