package identity

import (
	"context"
	"errors"

	"github.com/opencollab/backend/pkg/api"
)

// DocumentMigrationStore re-keys a document's records when svc-content
// migrates the document to a new id.
type DocumentMigrationStore interface {
	// MoveDocumentMemberships re-keys every membership of document oldID to
	// newID, one record at a time, and returns how many it moved. A user
	// who already has a membership of newID keeps it and loses the old one.
	MoveDocumentMemberships(ctx context.Context, ws, orgID, oldID, newID string) (int64, error)
	// RenameDocument changes the id of the document record in one write:
	// ErrNotFound when there is no oldID, ErrAlreadyExists when newID is
	// taken.
	RenameDocument(ctx context.Context, ws, orgID, oldID, newID string, now int64) error
	// DocumentHasMemberships reports whether any membership names the
	// document.
	DocumentHasMemberships(ctx context.Context, ws, orgID, docID string) (bool, error)
}

// DocumentMigration asks to move a document's identity records to a new id.
// MigrationID is the orchestrator's (svc-content) id of the migration; the
// move is idempotent without it, so it is only carried for the logs.
type DocumentMigration struct {
	OrganizationID string
	DocumentID     string
	NewDocumentID  string
	MigrationID    string
}

// MigrateDocument moves the document record and its memberships from
// DocumentID to NewDocumentID and returns how many records it moved.
//
// Memberships move first and the record last, and the record moves in a
// single write, so an interrupted run leaves the old record in place and a
// re-run finishes the job; once the record has moved a re-run moves 0.
// Both records existing can therefore never be a half-run: it means the new
// id belongs to another document, and the migration is refused.
func (s *Service) MigrateDocument(ctx context.Context, ws string, m DocumentMigration) (int64, error) {
	if m.DocumentID == m.NewDocumentID {
		return 0, api.Errorf(api.InvalidArgument, "newDocumentId must differ from documentId")
	}
	oldExists, err := s.documentExists(ctx, ws, m.OrganizationID, m.DocumentID)
	if err != nil {
		return 0, err
	}
	newExists, err := s.documentExists(ctx, ws, m.OrganizationID, m.NewDocumentID)
	if err != nil {
		return 0, err
	}
	if oldExists && newExists {
		return 0, api.Errorf(api.FailedPrecondition,
			"document %q already exists; a migration cannot merge two documents", m.NewDocumentID)
	}
	// Memberships of the old id are moved even when its record is gone:
	// they are what a run interrupted before the record move left behind.
	moved, err := s.store.MoveDocumentMemberships(ctx, ws, m.OrganizationID, m.DocumentID, m.NewDocumentID)
	if err != nil || !oldExists {
		return moved, err
	}
	err = s.store.RenameDocument(ctx, ws, m.OrganizationID, m.DocumentID, m.NewDocumentID, s.nowMilli())
	switch {
	case errors.Is(err, ErrNotFound):
		return moved, nil // a concurrent run moved it
	case errors.Is(err, ErrAlreadyExists):
		return moved, api.Errorf(api.FailedPrecondition,
			"document %q was created while the migration ran; a migration cannot merge two documents", m.NewDocumentID)
	case err != nil:
		return moved, err
	}
	return moved + 1, nil
}

// DocumentHasData reports whether identity holds anything for the document:
// its record or a membership of it. svc-content asks before migrating onto
// a document id.
func (s *Service) DocumentHasData(ctx context.Context, ws, orgID, docID string) (bool, error) {
	found, err := s.documentExists(ctx, ws, orgID, docID)
	if err != nil || found {
		return found, err
	}
	return s.store.DocumentHasMemberships(ctx, ws, orgID, docID)
}

func (s *Service) documentExists(ctx context.Context, ws, orgID, docID string) (bool, error) {
	_, err := s.store.GetDocument(ctx, ws, orgID, docID)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}
