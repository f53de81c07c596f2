package identity

import (
	"context"
	"errors"
)

// AddDocumentsRequest is /v2/organizations/documents/add.
type AddDocumentsRequest struct {
	OrganizationID     string
	CreateOrganization bool
	FolderID           string // "" = in no folder
	CreateFolder       bool
	Documents          []DocumentInput
}

// Item failure codes of the document operations.
const (
	CodeAlreadyExists = "already-exists"
	CodeNotFound      = "not-found"
)

// AddDocuments creates documents, optionally in a folder. The organization
// and folder must exist unless the request allows creating them; a document
// that exists already gets success: false.
func (s *Service) AddDocuments(ctx context.Context, ws string, req AddDocumentsRequest) (map[string]ItemResult, error) {
	if err := checkFolderID("folderId", req.FolderID); err != nil {
		return nil, err
	}
	if !req.CreateOrganization {
		if err := s.mustHaveOrganization(ctx, ws, req.OrganizationID); err != nil {
			return nil, err
		}
	}
	if req.FolderID != "" && !req.CreateFolder {
		if err := s.mustHaveFolder(ctx, ws, req.OrganizationID, req.FolderID, "createFolder"); err != nil {
			return nil, err
		}
	}
	now := s.nowMilli()
	if err := s.store.EnsureOrganization(ctx, ws, req.OrganizationID, now); err != nil {
		return nil, err
	}
	if req.FolderID != "" {
		if err := s.store.EnsureFolder(ctx, ws, newRootFolder(req.OrganizationID, req.FolderID, now)); err != nil {
			return nil, err
		}
	}
	out := make(map[string]ItemResult, len(req.Documents))
	for _, in := range req.Documents {
		d := documentFrom(req.OrganizationID, req.FolderID, in, now)
		err := s.store.InsertDocument(ctx, ws, d)
		switch {
		case errors.Is(err, ErrAlreadyExists):
			out[in.ID] = ItemResult{ID: in.ID, Message: "Document already exists.", Code: CodeAlreadyExists}
		case err != nil:
			return nil, err
		default:
			out[in.ID] = succeeded(in.ID, "Document added.")
		}
	}
	return out, nil
}

func documentFrom(orgID, folderID string, in DocumentInput, now int64) Document {
	d := newDocument(orgID, in.ID, now)
	d.FolderID = folderID
	d.Metadata = in.Metadata
	if in.Name != nil {
		d.Name = *in.Name
	}
	if in.AccessType != nil {
		d.AccessType = *in.AccessType
	}
	if in.Disabled != nil {
		d.Disabled = *in.Disabled
	}
	return d
}
