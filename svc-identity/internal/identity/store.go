package identity

import "context"

// Store is the persistence the operations need. Every method is scoped to
// one workspace; lookups of a single record return ErrNotFound, inserts of a
// record that exists return ErrAlreadyExists.
type Store interface {
	OrganizationStore
	FolderStore
	DocumentStore
	UserStore
	MembershipStore
	GroupStore
	DocumentMigrationStore
	UserOverviewStore
	AccessStore
}

// OrganizationStore keeps organization records.
type OrganizationStore interface {
	GetOrganization(ctx context.Context, ws, orgID string) (Organization, error)
	// EnsureOrganization creates the organization with defaults if missing.
	EnsureOrganization(ctx context.Context, ws, orgID string, now int64) error
	// SaveOrganization creates or updates; created reports which.
	SaveOrganization(ctx context.Context, ws string, in OrganizationInput, now int64) (created bool, err error)
	// UpdateOrganization changes an existing organization only.
	UpdateOrganization(ctx context.Context, ws string, in OrganizationInput, now int64) (found bool, err error)
	ListOrganizations(ctx context.Context, ws string, q OrganizationQuery) ([]Organization, error)
	// DeleteOrganizations removes the organizations with their folders,
	// documents, memberships, groups and group members (records last) with
	// a few store commands, not a few per organization; the caller bounds
	// the batch (writeChunk). found lists those that existed. Idempotent.
	DeleteOrganizations(ctx context.Context, ws string, orgIDs []string) (found []string, err error)
}

// OrganizationQuery selects a page of organizations sorted by id.
type OrganizationQuery struct {
	IDs   []string // nil = all
	After string   // ids greater than this
	Limit int
}

// FolderStore keeps folder records.
type FolderStore interface {
	GetFolder(ctx context.Context, ws, orgID, folderID string) (Folder, error)
	GetFolders(ctx context.Context, ws, orgID string, ids []string) ([]Folder, error)
	InsertFolder(ctx context.Context, ws string, f Folder) error
	// EnsureFolder inserts f unless a folder with its id exists.
	EnsureFolder(ctx context.Context, ws string, f Folder) error
	ListFolders(ctx context.Context, ws, orgID string) ([]Folder, error)
	// ListDescendantFolders returns every folder below folderID.
	ListDescendantFolders(ctx context.Context, ws, orgID, folderID string) ([]Folder, error)
	RenameFolder(ctx context.Context, ws, orgID, folderID, name string, now int64) error
	// PlaceFolder sets the parent and ancestors path of one folder.
	PlaceFolder(ctx context.Context, ws, orgID, folderID, parentID string, ancestors []string, now int64) error
	// DeleteFolders removes the folders with their documents and the
	// memberships of both.
	DeleteFolders(ctx context.Context, ws, orgID string, folderIDs []string) error
}

// DocumentStore keeps document records.
type DocumentStore interface {
	GetDocument(ctx context.Context, ws, orgID, docID string) (Document, error)
	GetDocuments(ctx context.Context, ws, orgID string, ids []string) ([]Document, error)
	InsertDocument(ctx context.Context, ws string, d Document) error
	// EnsureDocument inserts d unless a document with its id exists.
	EnsureDocument(ctx context.Context, ws string, d Document) error
	UpdateDocument(ctx context.Context, ws, orgID string, in DocumentInput, now int64) (found bool, err error)
	// UpdateDocuments is UpdateDocument of a batch (the caller bounds it)
	// with few store commands; it returns the ids of documents that do not
	// exist. Idempotent.
	UpdateDocuments(ctx context.Context, ws, orgID string, ins []DocumentInput, now int64) (missing []string, err error)
	ListDocuments(ctx context.Context, ws string, q DocumentQuery) ([]Document, error)
	// ListDocumentIDs is ListDocuments without the records, ids only.
	ListDocumentIDs(ctx context.Context, ws string, q DocumentQuery) ([]string, error)
	// DeleteDocuments removes the documents and their memberships (records
	// last) with a few store commands, not a few per document; the caller
	// bounds the batch (writeChunk). found lists those that existed.
	// Idempotent.
	DeleteDocuments(ctx context.Context, ws, orgID string, docIDs []string) (found []string, err error)
}

// DocumentQuery selects a page of an organization's documents sorted by id.
type DocumentQuery struct {
	OrganizationID string
	FolderID       *string // nil = any folder
	After          string
	Limit          int
}

// UserStore keeps user profiles, which are workspace-wide.
type UserStore interface {
	// SaveUsers creates each user or updates the fields its profile
	// carries; idempotent, so a retry completes a write that failed part
	// way. The caller bounds the batch (writeChunk, or the request's
	// limit where reading once matters more: users/update).
	SaveUsers(ctx context.Context, ws string, profiles []Profile, now int64) error
	GetUsers(ctx context.Context, ws string, userIDs []string) (map[string]UserSummary, error)
}

// MembershipStore keeps memberships.
type MembershipStore interface {
	// SaveMemberships creates or updates each membership. An empty
	// AccessRole keeps the stored role (editor for a new membership); a nil
	// ExpiresAt makes the membership permanent. Idempotent like SaveUsers.
	SaveMemberships(ctx context.Context, ws string, ms []Membership) error
	GetMembership(ctx context.Context, ws string, key MembershipKey) (Membership, error)
	// MembersAt returns which of userIDs have a membership of the resource
	// of at (its UserID unused), expired ones included. The request's
	// limit bounds userIDs.
	MembersAt(ctx context.Context, ws string, at MembershipKey, userIDs []string) ([]string, error)
	// SetMembershipRoles sets role on the memberships of the resource of at
	// held by userIDs, keeping everything else (expiry); idempotent.
	SetMembershipRoles(ctx context.Context, ws string, at MembershipKey, userIDs []string, role Role) error
	// IsOrganizationMember reports whether the user has any membership in
	// the organization (organization, folder or document level).
	IsOrganizationMember(ctx context.Context, ws, orgID, userID string) (bool, error)
	// OrganizationUserIDs returns the users with a membership in the
	// organization (organization, folder or document level, expired ones
	// included: IsOrganizationMember's members), sorted by id, each once,
	// the first limit of them.
	OrganizationUserIDs(ctx context.Context, ws, orgID string, limit int) ([]string, error)
	// OrganizationMembersAmong returns which of userIDs have a membership
	// in the organization (the caller bounds userIDs); ids may repeat.
	OrganizationMembersAmong(ctx context.Context, ws, orgID string, userIDs []string) ([]string, error)
	DeleteMembership(ctx context.Context, ws string, key MembershipKey) (found bool, err error)
	// DeleteMemberships removes a user's memberships of one resource type
	// and id in every organization (permission removal without an
	// organization id).
	DeleteMemberships(ctx context.Context, ws string, t ResourceType, resourceID, userID string) error
	// RemoveFromOrganization removes every membership and group membership
	// of the user in the organization.
	RemoveFromOrganization(ctx context.Context, ws, orgID, userID string) (found bool, err error)
	// RemoveUsersFromOrganization is RemoveFromOrganization of a batch
	// (the caller bounds it); found lists the users who had anything to
	// remove (ids may repeat). Idempotent.
	RemoveUsersFromOrganization(ctx context.Context, ws, orgID string, userIDs []string) (found []string, err error)
	// DeleteMembershipsAt deletes the memberships of the resource of at
	// held by userIDs and returns whose there were. Idempotent.
	DeleteMembershipsAt(ctx context.Context, ws string, at MembershipKey, userIDs []string) (found []string, err error)
	// DeleteUserGrants deletes the user's memberships of the resources with
	// one command (the caller bounds them); a ref without an organization
	// id matches its resource in every organization.
	DeleteUserGrants(ctx context.Context, ws, userID string, refs []ResourceRef) error
	ListMembers(ctx context.Context, ws string, q MemberQuery) ([]Membership, error)
	// UserMemberships returns the users' memberships of the organization
	// itself and of the given folders and documents, expired ones included.
	UserMemberships(ctx context.Context, ws string, q GrantQuery) ([]Membership, error)
}

// GrantQuery selects the memberships that decide access to some resources.
type GrantQuery struct {
	OrganizationID string
	UserIDs        []string
	FolderIDs      []string
	DocumentIDs    []string
}

// MemberQuery selects a page of memberships of one resource type, sorted by
// resource id then user id, leaving out those expired at ActiveAt.
type MemberQuery struct {
	OrganizationID string
	Type           ResourceType
	ResourceID     string   // "" = every resource of Type
	UserIDs        []string // nil = any user
	After          MemberCursor
	ActiveAt       int64 // epoch ms
	Limit          int
}

// MemberCursor is the key of the last membership of a page.
type MemberCursor struct {
	ResourceID string `json:"r,omitempty"`
	UserID     string `json:"u,omitempty"`
}

// GroupStore keeps user groups and their members.
type GroupStore interface {
	GroupExists(ctx context.Context, ws, orgID, groupID string) (bool, error)
	// SaveGroups creates or renames groups (the caller bounds the batch)
	// and returns the ids of those it created; idempotent.
	SaveGroups(ctx context.Context, ws string, groups []Group, now int64) (created []string, err error)
	// AddGroupMembers puts users into a group (the caller bounds the
	// batch); idempotent.
	AddGroupMembers(ctx context.Context, ws, orgID, groupID string, userIDs []string, now int64) error
	RemoveGroupMember(ctx context.Context, ws, orgID, groupID, userID string) (found bool, err error)
	// RemoveAllGroupMembers empties the group and returns who was in it.
	RemoveAllGroupMembers(ctx context.Context, ws, orgID, groupID string) ([]string, error)
	ListGroupMembers(ctx context.Context, ws, orgID string, groupIDs []string) ([]string, error)
}

// AccessStore changes what decides access to folders and documents besides
// memberships: a folder's access type and the folder a document sits in.
// Both report whether the record exists.
type AccessStore interface {
	SetFolderAccessType(ctx context.Context, ws, orgID, folderID, accessType string, now int64) (found bool, err error)
	SetDocumentFolder(ctx context.Context, ws, orgID, docID, folderID string, now int64) (found bool, err error)
}
