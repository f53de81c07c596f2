package identity

import (
	"context"
	"errors"
	"fmt"
)

// FolderInput is one folder of folders/add.
type FolderInput struct {
	ID         string
	Name       string
	ParentID   string // "" or RootFolder = top level
	AccessType string // "" = organizationPrivate
}

// AddFoldersRequest is /v2/organizations/folders/add.
type AddFoldersRequest struct {
	OrganizationID     string
	CreateOrganization bool
	Folders            []FolderInput
}

// AddFolders creates folders in request order, so a folder may name a
// parent added earlier in the same request. A folder that exists or whose
// parent does not gets success: false.
func (s *Service) AddFolders(ctx context.Context, ws string, req AddFoldersRequest) (map[string]ItemResult, error) {
	for i, in := range req.Folders {
		if err := checkFolderID(fmt.Sprintf("folders[%d].folderId", i), in.ID); err != nil {
			return nil, err
		}
	}
	if err := s.organizationReady(ctx, ws, req.OrganizationID, req.CreateOrganization); err != nil {
		return nil, err
	}
	out := make(map[string]ItemResult, len(req.Folders))
	for _, in := range req.Folders {
		res, err := s.addFolder(ctx, ws, req.OrganizationID, in)
		if err != nil {
			return nil, err
		}
		out[in.ID] = res
	}
	return out, nil
}

func (s *Service) addFolder(ctx context.Context, ws, orgID string, in FolderInput) (ItemResult, error) {
	now := s.nowMilli()
	f := newRootFolder(orgID, in.ID, now)
	f.Name = in.Name
	if in.AccessType != "" {
		f.AccessType = in.AccessType
	}
	if in.ParentID != "" && in.ParentID != RootFolder {
		parent, err := s.store.GetFolder(ctx, ws, orgID, in.ParentID)
		if errors.Is(err, ErrNotFound) {
			return failed(in.ID, "Parent folder does not exist."), nil
		}
		if err != nil {
			return ItemResult{}, err
		}
		f.ParentID, f.Ancestors = parent.ID, childAncestors(parent)
	}
	err := s.store.InsertFolder(ctx, ws, f)
	if errors.Is(err, ErrAlreadyExists) {
		return failed(in.ID, "Folder already exists."), nil
	}
	if err != nil {
		return ItemResult{}, err
	}
	return succeeded(in.ID, "Folder added."), nil
}

// childAncestors is the ancestors path of a folder placed in parent.
func childAncestors(parent Folder) []string {
	return append(append([]string{}, parent.Ancestors...), parent.ID)
}
