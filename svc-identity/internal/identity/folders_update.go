package identity

import (
	"context"
	"errors"
	"slices"
)

// FolderChange is one folder of folders/update: a new name and/or a new
// parent (nil = unchanged; RootFolder moves it to the top).
type FolderChange struct {
	ID       string
	Name     *string
	ParentID *string
}

// UpdateFolders renames and moves folders. Moving a folder moves its
// contents: the ancestors of every descendant are recomputed. A folder that
// does not exist, a parent that does not exist and a move under the folder
// itself or one of its descendants give success: false.
func (s *Service) UpdateFolders(ctx context.Context, ws, orgID string, changes []FolderChange) (map[string]ItemResult, error) {
	out := make(map[string]ItemResult, len(changes))
	for _, c := range changes {
		res, err := s.updateFolder(ctx, ws, orgID, c)
		if err != nil {
			return nil, err
		}
		out[c.ID] = res
	}
	return out, nil
}

func (s *Service) updateFolder(ctx context.Context, ws, orgID string, c FolderChange) (ItemResult, error) {
	f, err := s.store.GetFolder(ctx, ws, orgID, c.ID)
	if errors.Is(err, ErrNotFound) {
		return failed(c.ID, "Folder does not exist."), nil
	}
	if err != nil {
		return ItemResult{}, err
	}
	var ancestors []string
	if c.ParentID != nil {
		var refusal string
		ancestors, refusal, err = s.newAncestors(ctx, ws, f, *c.ParentID)
		if err != nil || refusal != "" {
			return failed(c.ID, refusal), err
		}
	}
	now := s.nowMilli()
	if c.Name != nil {
		if err := s.store.RenameFolder(ctx, ws, orgID, c.ID, *c.Name, now); err != nil {
			return ItemResult{}, err
		}
	}
	if ancestors != nil {
		if err := s.moveFolder(ctx, ws, f, *c.ParentID, ancestors, now); err != nil {
			return ItemResult{}, err
		}
	}
	return succeeded(c.ID, "Folder updated."), nil
}

// newAncestors checks the new parent of f and returns f's new ancestors
// path, or why the move is refused.
func (s *Service) newAncestors(ctx context.Context, ws string, f Folder, parentID string) ([]string, string, error) {
	if parentID == RootFolder {
		return []string{RootFolder}, "", nil
	}
	if parentID == f.ID {
		return nil, "A folder cannot be moved into itself.", nil
	}
	parent, err := s.store.GetFolder(ctx, ws, f.OrganizationID, parentID)
	if errors.Is(err, ErrNotFound) {
		return nil, "Parent folder does not exist.", nil
	}
	if err != nil {
		return nil, "", err
	}
	if slices.Contains(parent.Ancestors, f.ID) {
		return nil, "A folder cannot be moved into one of its subfolders.", nil
	}
	return childAncestors(parent), "", nil
}

// moveFolder places f under parentID, then rewrites the path of every
// descendant as f's new path plus the part below f. The descendants are
// recomputed from their own paths each time, so repeating a move that was
// interrupted completes it.
func (s *Service) moveFolder(ctx context.Context, ws string, f Folder, parentID string, ancestors []string, now int64) error {
	if err := s.store.PlaceFolder(ctx, ws, f.OrganizationID, f.ID, parentID, ancestors, now); err != nil {
		return err
	}
	below, err := s.store.ListDescendantFolders(ctx, ws, f.OrganizationID, f.ID)
	if err != nil {
		return err
	}
	base := append(slices.Clone(ancestors), f.ID)
	for _, d := range below {
		i := slices.Index(d.Ancestors, f.ID)
		path := append(slices.Clone(base), d.Ancestors[i+1:]...)
		if slices.Equal(path, d.Ancestors) {
			continue
		}
		if err := s.store.PlaceFolder(ctx, ws, f.OrganizationID, d.ID, d.ParentID, path, now); err != nil {
			return err
		}
	}
	return nil
}
