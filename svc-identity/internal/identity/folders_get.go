package identity

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/opencollab/backend/pkg/api"
)

// FolderNode is a folder with its subfolders (folders/get with a folderId).
type FolderNode struct {
	Folder
	SubFolders []FolderNode
}

// FoldersQuery is /v2/organizations/folders/get.
type FoldersQuery struct {
	OrganizationID string
	FolderID       string // "" = every folder of the organization, flat
	MaxDepth       int    // levels of subFolders under FolderID
}

// GetFolders returns every folder of the organization as a flat list, or
// the one folder asked for with its subfolders nested MaxDepth levels deep.
func (s *Service) GetFolders(ctx context.Context, ws string, q FoldersQuery) ([]FolderNode, error) {
	if q.FolderID == "" {
		folders, err := s.store.ListFolders(ctx, ws, q.OrganizationID)
		if err != nil {
			return nil, err
		}
		nodes := make([]FolderNode, 0, len(folders))
		for _, f := range folders {
			nodes = append(nodes, FolderNode{Folder: f})
		}
		return nodes, nil
	}
	top, err := s.store.GetFolder(ctx, ws, q.OrganizationID, q.FolderID)
	if errors.Is(err, ErrNotFound) {
		return nil, api.Errorf(api.NotFound, "folder %s does not exist in organization %s", q.FolderID, q.OrganizationID)
	}
	if err != nil {
		return nil, err
	}
	below, err := s.store.ListDescendantFolders(ctx, ws, q.OrganizationID, q.FolderID)
	if err != nil {
		return nil, err
	}
	children := map[string][]Folder{}
	for _, f := range below {
		children[f.ParentID] = append(children[f.ParentID], f)
	}
	return []FolderNode{nest(top, children, q.MaxDepth)}, nil
}

// nest builds f's subtree down to depth levels; SubFolders is never nil so
// the field is always present.
func nest(f Folder, children map[string][]Folder, depth int) FolderNode {
	n := FolderNode{Folder: f, SubFolders: []FolderNode{}}
	if depth <= 0 {
		return n
	}
	kids := children[f.ID]
	slices.SortFunc(kids, func(a, b Folder) int { return strings.Compare(a.ID, b.ID) })
	for _, c := range kids {
		n.SubFolders = append(n.SubFolders, nest(c, children, depth-1))
	}
	return n
}
