package identity

import (
	"context"
	"errors"

	"github.com/opencollab/backend/pkg/api"
)

// AccessResult is the per-item outcome of access/update and
// disablestate/update: the item keeps its caller's id as the map key.
type AccessResult struct {
	Success    bool   `json:"success"`
	AccessType string `json:"accessType,omitempty"`
	Disabled   *bool  `json:"disabled,omitempty"`
	Message    string `json:"message"`
}

// UpdateFolderAccess sets the access type of folders (organizationPrivate,
// restricted or public). Documents that keep the default follow it, and
// every decision reads it afresh: permissions/get, realtime access.
func (s *Service) UpdateFolderAccess(ctx context.Context, ws, orgID string, folderIDs []string, accessType string) (map[string]AccessResult, error) {
	now := s.nowMilli()
	out := make(map[string]AccessResult, len(folderIDs))
	for _, id := range folderIDs {
		found, err := s.store.SetFolderAccessType(ctx, ws, orgID, id, accessType, now)
		if err != nil {
			return nil, err
		}
		out[id] = accessOutcome(found, accessType, "Folder")
	}
	return out, nil
}

// UpdateDocumentAccess sets the access type of documents. restricted and
// public are the document's own; organizationPrivate stores the default,
// so the document takes its folder's access type (organizationPrivate
// outside any folder). Each item answers the access type that now applies,
// the one permissions/get and documents/get report.
func (s *Service) UpdateDocumentAccess(ctx context.Context, ws, orgID string, docIDs []string, accessType string) (map[string]AccessResult, error) {
	stored := accessType
	if stored == OrganizationPrivate {
		stored = DocumentDefault
	}
	now := s.nowMilli()
	out := make(map[string]AccessResult, len(docIDs))
	for _, id := range docIDs {
		found, err := s.store.UpdateDocument(ctx, ws, orgID, DocumentInput{ID: id, AccessType: &stored}, now)
		if err != nil {
			return nil, err
		}
		out[id] = accessOutcome(found, accessType, "Document")
	}
	docs, err := s.store.GetDocuments(ctx, ws, orgID, docIDs)
	if err != nil {
		return nil, err
	}
	types, err := s.effectiveAccessTypes(ctx, ws, orgID, docs)
	if err != nil {
		return nil, err
	}
	for id, t := range types {
		if r := out[id]; r.Success {
			r.AccessType = t
			out[id] = r
		}
	}
	return out, nil
}

func accessOutcome(found bool, accessType, what string) AccessResult {
	if !found {
		return AccessResult{Message: what + " does not exist."}
	}
	return AccessResult{Success: true, AccessType: accessType, Message: what + " access type updated."}
}

// SetOrganizationsDisabled turns access to whole organizations off or on;
// a missing organization is created with that state (as the hosted
// product does).
func (s *Service) SetOrganizationsDisabled(ctx context.Context, ws string, orgIDs []string, disabled bool) (map[string]AccessResult, error) {
	now := s.nowMilli()
	out := make(map[string]AccessResult, len(orgIDs))
	for _, id := range orgIDs {
		if _, err := s.store.SaveOrganization(ctx, ws, OrganizationInput{ID: id, Disabled: &disabled}, now); err != nil {
			return nil, err
		}
		out[id] = AccessResult{Success: true, Disabled: &disabled, Message: "Organization disabled state updated."}
	}
	return out, nil
}

// SetDocumentsDisabled turns access to documents off or on.
func (s *Service) SetDocumentsDisabled(ctx context.Context, ws, orgID string, docIDs []string, disabled bool) (map[string]AccessResult, error) {
	now := s.nowMilli()
	out := make(map[string]AccessResult, len(docIDs))
	for _, id := range docIDs {
		found, err := s.store.UpdateDocument(ctx, ws, orgID, DocumentInput{ID: id, Disabled: &disabled}, now)
		if err != nil {
			return nil, err
		}
		if !found {
			out[id] = AccessResult{Message: "Document does not exist."}
			continue
		}
		out[id] = AccessResult{Success: true, Disabled: &disabled, Message: "Document disabled state updated."}
	}
	return out, nil
}

// MoveDocuments puts documents into another folder of their organization.
// Their own memberships stay with them; what they inherit (folder grants,
// a default access type) now comes from the new folder, because every
// decision reads the document's current folder. The target folder must
// exist: NOT_FOUND otherwise, and nothing moves.
func (s *Service) MoveDocuments(ctx context.Context, ws, orgID string, docIDs []string, folderID string) (map[string]ItemResult, error) {
	if _, err := s.store.GetFolder(ctx, ws, orgID, folderID); err != nil {
		if errors.Is(err, ErrNotFound) {
			return nil, api.Errorf(api.NotFound, "folder %s does not exist in organization %s", folderID, orgID)
		}
		return nil, err
	}
	now := s.nowMilli()
	out := make(map[string]ItemResult, len(docIDs))
	for _, id := range docIDs {
		found, err := s.store.SetDocumentFolder(ctx, ws, orgID, id, folderID, now)
		if err != nil {
			return nil, err
		}
		if !found {
			out[id] = ItemResult{ID: id, Message: "Document does not exist.", Code: CodeNotFound}
			continue
		}
		out[id] = succeeded(id, "Document moved.")
	}
	return out, nil
}
