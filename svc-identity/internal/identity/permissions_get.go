package identity

import (
	"context"
	"errors"
	"maps"
	"slices"

	"github.com/opencollab/backend/pkg/api"
)

// PermissionsQuery is /v2/auth/permissions/get.
type PermissionsQuery struct {
	OrganizationID string
	UserIDs        []string
	FolderIDs      []string
	DocumentIDs    []string
	// SkipExistenceCheck reports missing resources inside the result
	// instead of failing with NOT_FOUND.
	SkipExistenceCheck bool
}

// UserPermissions is one user's entry of permissions/get.
type UserPermissions struct {
	Organization map[string]PermInfo `json:"organization,omitempty"`
	Folders      map[string]PermInfo `json:"folders,omitempty"`
	Documents    map[string]PermInfo `json:"documents,omitempty"`
}

// resources are the records a permissions/get query is about.
type resources struct {
	orgExists bool
	orgOff    bool              // the organization's access is disabled
	folders   map[string]Folder // requested folders and every folder on their paths
	docs      map[string]Document
}

// GetPermissions reports each user's access to the organization and to the
// requested folders and documents. A missing resource fails the call with
// NOT_FOUND carrying the full map in error.details, unless
// SkipExistenceCheck is set.
func (s *Service) GetPermissions(ctx context.Context, ws string, q PermissionsQuery) (map[string]UserPermissions, error) {
	res, err := s.loadResources(ctx, ws, q)
	if err != nil {
		return nil, err
	}
	out, missing, err := s.decide(ctx, ws, q, res)
	if err != nil {
		return nil, err
	}
	if missing && !q.SkipExistenceCheck {
		return nil, api.Errorf(api.NotFound, "one or more requested resources do not exist").WithDetails(out)
	}
	return out, nil
}

// decide reports each user's access to res, the resources of q loaded
// once (loadResources), and whether one of them does not exist. Its only
// read is the users' memberships.
func (s *Service) decide(ctx context.Context, ws string, q PermissionsQuery, res resources) (map[string]UserPermissions, bool, error) {
	ms, err := s.store.UserMemberships(ctx, ws, GrantQuery{
		OrganizationID: q.OrganizationID, UserIDs: q.UserIDs, FolderIDs: slices.Collect(maps.Keys(res.folders)), DocumentIDs: q.DocumentIDs,
	})
	if err != nil {
		return nil, false, err
	}
	byUser := grantsByUser(ms, s.now().UnixMilli())
	out := make(map[string]UserPermissions, len(q.UserIDs))
	missing := false
	for _, userID := range q.UserIDs {
		up, absent := res.permissions(q, byUser[userID])
		out[userID] = up
		missing = missing || absent
	}
	return out, missing, nil
}

// permissions builds one user's entry; missing reports whether a resource
// does not exist.
func (r resources) permissions(q PermissionsQuery, g *grants) (up UserPermissions, missing bool) {
	up.Organization = map[string]PermInfo{q.OrganizationID: r.disabled(g.organizationAccess(), false)}
	if !r.orgExists {
		up.Organization[q.OrganizationID] = notFound("organization")
		missing = true
	}
	if len(q.FolderIDs) > 0 {
		up.Folders = make(map[string]PermInfo, len(q.FolderIDs))
	}
	for _, id := range q.FolderIDs {
		f, ok := r.folders[id]
		if !ok {
			up.Folders[id] = notFound("folder")
			missing = true
			continue
		}
		up.Folders[id] = r.disabled(g.decide(nil, folderPlacement(f, r.folders)), false)
	}
	if len(q.DocumentIDs) > 0 {
		up.Documents = make(map[string]PermInfo, len(q.DocumentIDs))
	}
	for _, id := range q.DocumentIDs {
		d, ok := r.docs[id]
		if !ok {
			up.Documents[id] = notFound("document")
			missing = true
			continue
		}
		var own *Membership
		if g != nil {
			if m, ok := g.docs[id]; ok {
				own = &m
			}
		}
		up.Documents[id] = r.disabled(g.decide(own, documentPlacement(d, r.folders)), d.Disabled)
	}
	return up, missing
}

func notFound(what string) PermInfo {
	return PermInfo{Error: "The " + what + " does not exist.", ErrorCode: CodeDoesNotExist}
}

// loadResources reads the organization, the requested folders and
// documents, and the folders on their paths.
func (s *Service) loadResources(ctx context.Context, ws string, q PermissionsQuery) (resources, error) {
	res := resources{docs: map[string]Document{}}
	org, err := s.store.GetOrganization(ctx, ws, q.OrganizationID)
	switch {
	case err == nil:
		res.orgExists, res.orgOff = true, org.Disabled
	case !errors.Is(err, ErrNotFound):
		return res, err
	}
	docs, err := s.store.GetDocuments(ctx, ws, q.OrganizationID, q.DocumentIDs)
	if err != nil {
		return res, err
	}
	want := append([]string{}, q.FolderIDs...)
	for _, d := range docs {
		res.docs[d.ID] = d
		if d.FolderID != "" {
			want = append(want, d.FolderID)
		}
	}
	res.folders, err = s.foldersWithPaths(ctx, ws, q.OrganizationID, want)
	return res, err
}

// foldersWithPaths reads the folders ids and every folder on their paths
// (two rounds: the ancestors of a folder's ancestors are among its own
// ancestors).
func (s *Service) foldersWithPaths(ctx context.Context, ws, orgID string, ids []string) (map[string]Folder, error) {
	folders := map[string]Folder{}
	if err := s.addFolders(ctx, ws, orgID, ids, folders); err != nil {
		return nil, err
	}
	var ancestors []string
	for _, f := range folders {
		ancestors = append(ancestors, f.Ancestors...)
	}
	return folders, s.addFolders(ctx, ws, orgID, ancestors, folders)
}

// effectiveAccessTypes is the access type permissions/get reports for
// each document: its own restricted or public, else its folder's, else
// organizationPrivate. Every answer that names a document's access type
// says this one, so two operations never disagree about one document.
func (s *Service) effectiveAccessTypes(ctx context.Context, ws, orgID string, docs []Document) (map[string]string, error) {
	var want []string
	for _, d := range docs {
		if d.FolderID != "" {
			want = append(want, d.FolderID)
		}
	}
	folders, err := s.foldersWithPaths(ctx, ws, orgID, want)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(docs))
	for _, d := range docs {
		out[d.ID] = documentPlacement(d, folders).accessType
	}
	return out, nil
}

func (s *Service) addFolders(ctx context.Context, ws, orgID string, ids []string, into map[string]Folder) error {
	var need []string
	for _, id := range ids {
		if _, ok := into[id]; !ok && id != RootFolder {
			need = append(need, id)
		}
	}
	if len(need) == 0 {
		return nil
	}
	folders, err := s.store.GetFolders(ctx, ws, orgID, need)
	if err != nil {
		return err
	}
	for _, f := range folders {
		into[f.ID] = f
	}
	return nil
}
