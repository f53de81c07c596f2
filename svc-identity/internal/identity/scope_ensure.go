package identity

import (
	"context"
	"errors"
)

// EnsureScope creates what another service's write asked to be created
// with it, the createOrganization and createDocument of a comment or
// notification add: the organization, and the document, when missing. An
// existing one is left as it is (its name, access and folder unchanged).
// createDocument in a missing organization without createOrganization is
// NOT_FOUND, as documents/add answers it.
func (s *Service) EnsureScope(ctx context.Context, ws, orgID, docID string, createOrg, createDoc bool) error {
	if !createOrg && !createDoc {
		return nil
	}
	if !createOrg {
		if err := s.mustHaveOrganization(ctx, ws, orgID); err != nil {
			return err
		}
	}
	now := s.nowMilli()
	if err := s.store.EnsureOrganization(ctx, ws, orgID, now); err != nil {
		return err
	}
	if !createDoc {
		return nil
	}
	err := s.store.InsertDocument(ctx, ws, newDocument(orgID, docID, now))
	if errors.Is(err, ErrAlreadyExists) {
		return nil
	}
	return err
}
