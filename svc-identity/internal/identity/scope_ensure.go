package identity

import (
	"context"
	"errors"

	"github.com/opencollab/backend/pkg/api"
)

// EnsureScope creates what another service's write asked to be created
// with it, the createOrganization and createDocument of a comment or
// notification add: the organization, and the document, when missing. An
// existing one is left as it is (its name, access and folder unchanged).
// createDocument in a missing organization without createOrganization is
// NOT_FOUND, as documents/add answers it; createDocument without a
// document id is INVALID_ARGUMENT.
func (s *Service) EnsureScope(ctx context.Context, ws, orgID, docID string, createOrg, createDoc bool) error {
	if createDoc && docID == "" {
		return api.Errorf(api.InvalidArgument, "field documentId is required with createDocument")
	}
	if !createOrg && !createDoc {
		return nil
	}
	if there, err := s.scopeExists(ctx, ws, orgID, docID, createDoc); err != nil || there {
		return err
	}
	now := s.nowMilli()
	if createOrg {
		if err := s.store.EnsureOrganization(ctx, ws, orgID, now); err != nil {
			return err
		}
	} else if err := s.mustHaveOrganization(ctx, ws, orgID); err != nil {
		return err // createDocument alone: the organization is read, not upserted
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

// scopeExists reports whether what the flags ask for is there already: the
// usual case, since a caller that sends them sends them with every add, so
// an ensure is one read by _id rather than an upsert and a refused insert.
// A document is never left without its organization: deleting one
// removes its documents first.
func (s *Service) scopeExists(ctx context.Context, ws, orgID, docID string, doc bool) (bool, error) {
	var err error
	if doc {
		_, err = s.store.GetDocument(ctx, ws, orgID, docID)
	} else {
		_, err = s.store.GetOrganization(ctx, ws, orgID)
	}
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}
