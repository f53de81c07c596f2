package httpapi

import (
	"net/mail"
	"time"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-identity/internal/identity"
	"github.com/opencollab/backend/svc-identity/internal/signing"
)

type signatureRequest struct {
	Permissions []signing.Permission `json:"permissions" validate:"required,max=@identity.permissions"`
}

type verifySignatureRequest struct {
	Permissions []signing.Permission `json:"permissions" validate:"required,max=@identity.permissions"`
	Signature   string               `json:"signature" validate:"required"`
}

// checkPermissionData applies the rule tags cannot: accessRole belongs to
// document decisions only.
func checkPermissionData(perms []signing.Permission) error {
	for i, p := range perms {
		if p.AccessRole != "" && p.Type != string(identity.ResourceDocument) {
			return api.Errorf(api.InvalidArgument, "field permissions[%d].accessRole is allowed only for document resources", i)
		}
	}
	return nil
}

// resourceDTO is a Resource of permissions/add and generate_token.
type resourceDTO struct {
	Type           string `json:"type" validate:"required,oneof=organization folder document"`
	ID             string `json:"id" validate:"required"`
	OrganizationID string `json:"organizationId"`
	AccessRole     string `json:"accessRole" validate:"oneof=viewer editor"`
	ExpiresAt      *int64 `json:"expiresAt"` // epoch ms
}

// checkResources applies the rules tags cannot: folders and documents name
// their organization, and an expiry lies in the future.
func checkResources(rs []resourceDTO, now time.Time) error {
	for i, r := range rs {
		if r.Type != string(identity.ResourceOrganization) && r.OrganizationID == "" {
			return api.Errorf(api.InvalidArgument, "field permissions.resources[%d].organizationId is required for %s resources", i, r.Type)
		}
		if r.ExpiresAt != nil && (*r.ExpiresAt <= 0 || *r.ExpiresAt <= now.UnixMilli()) {
			return api.Errorf(api.InvalidArgument, "field permissions.resources[%d].expiresAt must be a future time in epoch milliseconds", i)
		}
	}
	return nil
}

func (r resourceDTO) role() string {
	if r.AccessRole == "" {
		return string(identity.RoleEditor)
	}
	return r.AccessRole
}

type resourcesDTO struct {
	Resources []resourceDTO `json:"resources" validate:"required,max=@identity.resources"`
}

type permissionUserDTO struct {
	UserID string `json:"userId" validate:"required"`
}

type addPermissionsRequest struct {
	User        *permissionUserDTO `json:"user" validate:"required"`
	Permissions *resourcesDTO      `json:"permissions" validate:"required"`
}

type getPermissionsRequest struct {
	OrganizationID     string   `json:"organizationId" validate:"required"`
	UserIDs            []string `json:"userIds" validate:"required,max=@identity.userIds"`
	FolderIDs          []string `json:"folderIds" validate:"max=@identity.folderIds"`
	DocumentIDs        []string `json:"documentIds" validate:"max=@identity.documents"`
	SkipExistenceCheck bool     `json:"skipResourceExistenceValidation"`
}

// resourceRefDTO is a Resource reference of permissions/remove.
type resourceRefDTO struct {
	Type           string `json:"type" validate:"required,oneof=organization folder document"`
	ID             string `json:"id" validate:"required"`
	OrganizationID string `json:"organizationId"`
}

type removePermissionsRequest struct {
	UserID      string `json:"userId" validate:"required"`
	Permissions *struct {
		Resources []resourceRefDTO `json:"resources" validate:"required,max=@identity.resources"`
	} `json:"permissions" validate:"required"`
}

// userPropertiesDTO is the user of generate_token; custom keys travel in
// the token too.
type userPropertiesDTO struct {
	Name    string `json:"name" validate:"required"`
	Email   string `json:"email" validate:"required"`
	IsAdmin bool   `json:"isAdmin"`

	Extra map[string]any `json:"-"`
}

func (u *userPropertiesDTO) UnmarshalJSON(b []byte) error {
	type fields userPropertiesDTO
	extra, err := decodeOpen(b, (*fields)(u))
	u.Extra = extra
	return err
}

// OpenJSON: custom keys travel in the token.
func (*userPropertiesDTO) OpenJSON() {}

// claims is the user object carried in the token.
func (u userPropertiesDTO) claims() map[string]any {
	out := make(map[string]any, len(u.Extra)+3)
	for k, v := range u.Extra {
		out[k] = v
	}
	out["name"], out["email"], out["isAdmin"] = u.Name, u.Email, u.IsAdmin
	return out
}

// tokenPermissionsDTO allows an empty resource list: a token without
// resources grants no access.
type tokenPermissionsDTO struct {
	Resources *[]resourceDTO `json:"resources" validate:"required,max=@identity.resources"`
}

type generateTokenRequest struct {
	UserID         string               `json:"userId" validate:"required"`
	UserProperties *userPropertiesDTO   `json:"userProperties" validate:"required"`
	Permissions    *tokenPermissionsDTO `json:"permissions" validate:"required"`
}

// validEmail accepts a bare address (no display name) with a local part
// and a domain.
func validEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s
}
