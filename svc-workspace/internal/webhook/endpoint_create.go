package webhook

import (
	"context"
	"errors"
	"fmt"

	"github.com/opencollab/backend/pkg/api"
)

// CreateEndpoint adds a delivery endpoint with a new signing secret, which
// is generated here and never accepted from the caller.
func (s *Service) CreateEndpoint(ctx context.Context, workspaceID string, spec EndpointSpec) (Endpoint, error) {
	if err := s.RequireEnabled(ctx, workspaceID); err != nil {
		return Endpoint{}, err
	}
	spec, err := validateSpec(spec)
	if err != nil {
		return Endpoint{}, err
	}
	if err := s.checkTarget(spec.URL); err != nil {
		return Endpoint{}, err
	}
	if err := s.requireBox(); err != nil {
		return Endpoint{}, err
	}
	now := s.clock()
	id := newEndpointID()
	rec := EndpointRecord{
		Endpoint: Endpoint{
			ID: id, WorkspaceID: workspaceID, URL: spec.URL, Description: spec.Description,
			FilterTypes: spec.FilterTypes, Channels: spec.Channels, Disabled: spec.Disabled,
			RateLimit: spec.RateLimit, UID: spec.UID, CreatedAt: now, UpdatedAt: now,
		},
		Metadata:       spec.Metadata,
		Secrets:        []Secret{s.sealSecret(workspaceID, id)},
		SecretsVersion: 1,
	}
	defer s.ForgetTargets(workspaceID) // the new endpoint gets events at once here
	err = s.store.InsertEndpoint(ctx, rec)
	if errors.Is(err, ErrDuplicate) && spec.UID != nil {
		return Endpoint{}, api.Errorf(api.AlreadyExists, "another endpoint of this workspace has uid %q", *spec.UID)
	}
	if err != nil {
		return Endpoint{}, fmt.Errorf("insert endpoint: %w", err)
	}
	return rec.Endpoint, nil
}
