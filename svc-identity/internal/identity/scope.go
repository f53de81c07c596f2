package identity

import (
	"context"
	"errors"

	"github.com/opencollab/backend/pkg/api"
)

// Scope is where a users operation applies: the organization itself, or
// one of its folders or documents (never both).
type Scope struct {
	OrganizationID string
	FolderID       string
	DocumentID     string
}

func (sc Scope) validate() error {
	if sc.FolderID != "" && sc.DocumentID != "" {
		return api.Errorf(api.InvalidArgument, "use documentId or folderId, not both")
	}
	return nil
}

// checkFolderID refuses RootFolder as the id of a new folder: it names the
// top of every tree (parentFolderId, ancestors), so a folder with that id
// would be its own parent, an ancestor of every top-level folder, and
// invisible to the access rules.
func checkFolderID(field, id string) error {
	if id == RootFolder {
		return api.Errorf(api.InvalidArgument, "field %s: %q is reserved for the top of the folder tree", field, RootFolder)
	}
	return nil
}

func (sc Scope) isOrganization() bool { return sc.FolderID == "" && sc.DocumentID == "" }

// key is the membership of userID at this scope.
func (sc Scope) key(userID string) MembershipKey {
	k := MembershipKey{OrganizationID: sc.OrganizationID, UserID: userID}
	switch {
	case sc.DocumentID != "":
		k.Type, k.ResourceID = ResourceDocument, sc.DocumentID
	case sc.FolderID != "":
		k.Type, k.ResourceID = ResourceFolder, sc.FolderID
	default:
		k.Type, k.ResourceID = ResourceOrganization, sc.OrganizationID
	}
	return k
}

// ensureScope makes the scope exist for users/add: the organization is
// always created, its folder or document only when the caller allows it.
// The existence checks run first so a refused request writes nothing.
func (s *Service) ensureScope(ctx context.Context, ws string, sc Scope, createFolder, createDocument bool) error {
	if err := checkFolderID("folderId", sc.FolderID); err != nil {
		return err
	}
	if sc.DocumentID != "" && !createDocument {
		if err := s.mustHaveDocument(ctx, ws, sc.OrganizationID, sc.DocumentID, "createDocument"); err != nil {
			return err
		}
	}
	if sc.FolderID != "" && !createFolder {
		if err := s.mustHaveFolder(ctx, ws, sc.OrganizationID, sc.FolderID, "createFolder"); err != nil {
			return err
		}
	}
	now := s.nowMilli()
	if err := s.store.EnsureOrganization(ctx, ws, sc.OrganizationID, now); err != nil {
		return err
	}
	if sc.DocumentID != "" {
		return s.store.EnsureDocument(ctx, ws, newDocument(sc.OrganizationID, sc.DocumentID, now))
	}
	if sc.FolderID != "" {
		return s.store.EnsureFolder(ctx, ws, newRootFolder(sc.OrganizationID, sc.FolderID, now))
	}
	return nil
}

func (s *Service) mustHaveOrganization(ctx context.Context, ws, orgID string) error {
	_, err := s.store.GetOrganization(ctx, ws, orgID)
	if errors.Is(err, ErrNotFound) {
		return api.Errorf(api.NotFound, "organization %s does not exist; pass createOrganization: true to create it", orgID)
	}
	return err
}

func (s *Service) mustHaveFolder(ctx context.Context, ws, orgID, folderID, createFlag string) error {
	_, err := s.store.GetFolder(ctx, ws, orgID, folderID)
	if errors.Is(err, ErrNotFound) {
		return api.Errorf(api.NotFound, "folder %s does not exist in organization %s; pass %s: true to create it", folderID, orgID, createFlag)
	}
	return err
}

func (s *Service) mustHaveDocument(ctx context.Context, ws, orgID, docID, createFlag string) error {
	_, err := s.store.GetDocument(ctx, ws, orgID, docID)
	if errors.Is(err, ErrNotFound) {
		return api.Errorf(api.NotFound, "document %s does not exist in organization %s; pass %s: true to create it", docID, orgID, createFlag)
	}
	return err
}

// organizationReady checks (createOrg false) or creates the organization
// that folders, documents and groups are added to.
func (s *Service) organizationReady(ctx context.Context, ws, orgID string, createOrg bool) error {
	if !createOrg {
		return s.mustHaveOrganization(ctx, ws, orgID)
	}
	return s.store.EnsureOrganization(ctx, ws, orgID, s.nowMilli())
}

// newDocument is a document created implicitly: no folder, default access.
func newDocument(orgID, docID string, now int64) Document {
	return Document{OrganizationID: orgID, ID: docID, AccessType: DocumentDefault, CreatedAt: now, LastUpdated: now}
}

// newRootFolder is a folder created implicitly: at the top, private to the
// organization.
func newRootFolder(orgID, folderID string, now int64) Folder {
	return Folder{
		OrganizationID: orgID, ID: folderID, ParentID: RootFolder, Ancestors: []string{RootFolder},
		AccessType: OrganizationPrivate, CreatedAt: now, LastUpdated: now,
	}
}

// revocation is what removing userID at this scope revokes: at
// organization level every grant in the organization.
func (sc Scope) revocation(userID string) Revocation {
	if sc.isOrganization() {
		return Revocation{UserID: userID, Type: RevokedMembership, ResourceID: sc.OrganizationID, OrganizationID: sc.OrganizationID}
	}
	k := sc.key(userID)
	return Revocation{UserID: userID, Type: k.Type, ResourceID: k.ResourceID, OrganizationID: k.OrganizationID}
}
