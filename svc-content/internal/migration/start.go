package migration

import (
	"context"
	"crypto/rand"

	"github.com/opencollab/backend/pkg/api"
)

// idPrefix makes migration ids recognisable.
const idPrefix = "mig_"

// StartRequest asks to move a document's data to a new document id.
type StartRequest struct {
	WorkspaceID    string
	OrganizationID string
	DocumentID     string
	NewDocumentID  string
}

// Start records a pending migration and returns its id; the work happens
// in a Worker. It refuses (writing nothing) a target that already holds
// data at any owner (ALREADY_EXISTS; unless a failed migration between the
// same documents put it there), an owner that cannot answer (UNAVAILABLE)
// and a document that an unfinished migration already moves from or to
// (FAILED_PRECONDITION), and a source document no owner holds anything of
// (NOT_FOUND).
func (s *Service) Start(ctx context.Context, req StartRequest) (string, error) {
	if req.DocumentID == req.NewDocumentID {
		return "", api.Errorf(api.InvalidArgument, "newDocumentId must differ from documentId")
	}
	target := Document{WorkspaceID: req.WorkspaceID, OrganizationID: req.OrganizationID, DocumentID: req.NewDocumentID}
	// A failed migration between the same two documents may have moved
	// part of the data already: starting it again finishes the move, so
	// that data on the target is no reason to refuse.
	retry, err := s.store.failedBetween(ctx, req.WorkspaceID, req.OrganizationID, req.DocumentID, req.NewDocumentID)
	if err != nil {
		return "", err
	}
	if !retry {
		if err := s.refuseTargetWithData(ctx, target); err != nil {
			return "", err
		}
	}
	now := s.now()
	r := record{
		ID:             idPrefix + rand.Text(),
		WorkspaceID:    req.WorkspaceID,
		OrganizationID: req.OrganizationID,
		DocumentID:     req.DocumentID,
		NewDocumentID:  req.NewDocumentID,
		Status:         Pending,
		Steps:          s.stepNames(),
		Done:           map[string]int64{},
		LeaseUntil:     now,
		CreatedAt:      now,
		UpdatedAt:      now,
	}
	if err := s.store.lockDocuments(ctx, r.ID, now, r.source(), r.target()); err != nil {
		return "", err
	}
	// After the locks: a document that an unfinished migration moves is
	// refused as such (FAILED_PRECONDITION), not as missing.
	if !retry {
		if err := s.refuseMissingSource(ctx, r.source()); err != nil {
			s.store.unlock(context.WithoutCancel(ctx), r.ID, r.source(), r.target())
			return "", err
		}
	}
	if err := s.store.insert(ctx, r); err != nil {
		s.store.unlock(context.WithoutCancel(ctx), r.ID, r.source(), r.target())
		return "", err
	}
	s.signal()
	s.logger.InfoContext(ctx, "migration started", "migrationId", r.ID,
		"workspaceId", r.WorkspaceID, "documentId", r.DocumentID, "newDocumentId", r.NewDocumentID)
	return r.ID, nil
}

// refuseMissingSource answers NOT_FOUND when no owner holds anything of
// the source document (no record, no content, no grant): there is no
// document to migrate, and "completed" would mislead the caller.
func (s *Service) refuseMissingSource(ctx context.Context, source Document) error {
	for _, st := range s.steps {
		has, err := st.Owner.DocumentHasData(ctx, source)
		if err != nil {
			s.logger.WarnContext(ctx, "migration: has-data check failed", "owner", st.Name, "error", err)
			return api.Errorf(api.Unavailable,
				"cannot check whether document %q exists: %s is unavailable; retry later", source.DocumentID, st.Name)
		}
		if has {
			return nil
		}
	}
	return api.Errorf(api.NotFound, "document %s does not exist in organization %s", source.DocumentID, source.OrganizationID)
}

// refuseTargetWithData asks every owner whether the target document id
// already has data: migrating onto it would mix two documents.
func (s *Service) refuseTargetWithData(ctx context.Context, target Document) error {
	for _, st := range s.steps {
		has, err := st.Owner.DocumentHasData(ctx, target)
		if err != nil {
			s.logger.WarnContext(ctx, "migration: has-data check failed", "owner", st.Name, "error", err)
			return api.Errorf(api.Unavailable,
				"cannot check whether document %q already has data: %s is unavailable; retry later", target.DocumentID, st.Name)
		}
		if has {
			return api.Errorf(api.AlreadyExists,
				"document %s already has data; migrating onto it is refused", target.DocumentID)
		}
	}
	return nil
}
