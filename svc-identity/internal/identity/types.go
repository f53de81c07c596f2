package identity

import "errors"

// Role is what a membership lets a user do.
type Role string

// Roles. Editor is the default wherever a role may be omitted.
const (
	RoleViewer Role = "viewer"
	RoleEditor Role = "editor"
)

// rank orders roles so the strongest grant wins.
func (r Role) rank() int {
	switch r {
	case RoleEditor:
		return 2
	case RoleViewer:
		return 1
	}
	return 0
}

// ResourceType names what a membership is attached to.
type ResourceType string

// Resource types.
const (
	ResourceOrganization ResourceType = "organization"
	ResourceFolder       ResourceType = "folder"
	ResourceDocument     ResourceType = "document"
)

// Access types. Folders use OrganizationPrivate, Restricted and Public;
// documents use DocumentDefault, Restricted and Public.
const (
	OrganizationPrivate = "organizationPrivate"
	Restricted          = "restricted"
	Public              = "public"
	DocumentDefault     = "default"
)

// RootFolder is the parentFolderId of a top-level folder and the first
// element of every ancestors path.
const RootFolder = "root"

// Errors the store returns for the intent-named lookups and inserts.
var (
	ErrNotFound      = errors.New("identity: not found")
	ErrAlreadyExists = errors.New("identity: already exists")
)

// Organization is an organization record.
type Organization struct {
	ID          string
	Name        string
	Disabled    bool
	Metadata    map[string]any
	CreatedAt   int64 // epoch ms
	LastUpdated int64 // epoch ms
}

// OrganizationInput is an add or update request for one organization; nil
// fields keep their stored value and Metadata keys are merged.
type OrganizationInput struct {
	ID       string
	Name     *string
	Disabled *bool
	Metadata map[string]any
}

// Folder is a folder record.
type Folder struct {
	OrganizationID string
	ID             string
	Name           string
	ParentID       string   // RootFolder at the top
	Ancestors      []string // folder ids from RootFolder down to the parent
	AccessType     string
	CreatedAt      int64
	LastUpdated    int64
}

// Document is a document record.
type Document struct {
	OrganizationID string
	ID             string
	Name           string
	FolderID       string // "" when the document is in no folder
	AccessType     string
	Disabled       bool
	Metadata       map[string]any
	CreatedAt      int64
	LastUpdated    int64
}

// DocumentInput is an add or update request for one document; nil fields
// keep their stored value and Metadata keys are merged.
type DocumentInput struct {
	ID         string
	Name       *string
	AccessType *string // DocumentDefault, Restricted or Public
	Disabled   *bool
	Metadata   map[string]any
}

// Profile is what a request says about a user. Nil fields were not sent and
// keep their stored value; Extra holds keys this service does not know.
type Profile struct {
	UserID      string
	Name        *string
	Email       *string
	Initial     *string
	PhotoURL    *string
	Color       *string
	TextColor   *string
	Plan        *string
	Type        *string
	IsAdmin     *bool
	IsReadOnly  *bool
	IsAnonymous *bool
	IsGuest     *bool
	Extra       map[string]any
}

// UserSummary is a user as users/get lists it.
type UserSummary struct {
	UserID string `json:"userId"`
	Name   string `json:"name"`
	Email  string `json:"email"`
}

// MembershipKey identifies one membership.
type MembershipKey struct {
	OrganizationID string
	Type           ResourceType
	ResourceID     string // the organization id for organization-level memberships
	UserID         string
}

// Membership is a user's place in an organization, folder or document.
type Membership struct {
	MembershipKey
	AccessRole Role
	ExpiresAt  *int64 // epoch ms; nil = never
	CreatedAt  int64
}

// activeAt reports whether the membership still grants access at the given
// epoch millisecond.
func (m Membership) activeAt(ms int64) bool {
	return m.ExpiresAt == nil || *m.ExpiresAt >= ms
}

// Group is an organization user group.
type Group struct {
	OrganizationID string
	ID             string
	Name           *string // nil keeps the stored name
}

// ItemResult is the per-item outcome of a batch write.
type ItemResult struct {
	Success bool   `json:"success"`
	ID      string `json:"id,omitempty"`
	Message string `json:"message"`
	// Code is set on failed document items: already-exists or not-found.
	Code string `json:"code,omitempty"`
}

func succeeded(id, msg string) ItemResult { return ItemResult{Success: true, ID: id, Message: msg} }

func failed(id, msg string) ItemResult { return ItemResult{Success: false, ID: id, Message: msg} }
