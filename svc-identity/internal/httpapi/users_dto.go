package httpapi

import (
	"encoding/json"

	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// userDTO is a User of the v2 user operations. Keys it does not declare are
// kept with the profile (Extra).
type userDTO struct {
	UserID      string  `json:"userId" validate:"required"`
	Name        *string `json:"name"`
	Email       *string `json:"email"`
	Initial     *string `json:"initial"`
	PhotoURL    *string `json:"photoUrl"`
	Color       *string `json:"color"`
	TextColor   *string `json:"textColor"`
	Plan        *string `json:"plan"`
	Type        *string `json:"type"`
	IsAdmin     *bool   `json:"isAdmin"`
	IsReadOnly  *bool   `json:"isReadOnly"`
	IsAnonymous *bool   `json:"isAnonymous"`
	IsGuest     *bool   `json:"isGuest"`
	AccessRole  string  `json:"accessRole" validate:"oneof=viewer editor"`

	Extra map[string]any `json:"-"`
}

func (u *userDTO) UnmarshalJSON(b []byte) error {
	type fields userDTO
	extra, err := decodeOpen(b, (*fields)(u))
	u.Extra = extra
	return err
}

// OpenJSON marks a User as an open object for api.Decode: keys beyond its
// fields are profile keys.
func (*userDTO) OpenJSON() {}

func (u userDTO) input() identity.UserInput {
	return identity.UserInput{
		Profile: identity.Profile{
			UserID: u.UserID, Name: u.Name, Email: u.Email, Initial: u.Initial, PhotoURL: u.PhotoURL,
			Color: u.Color, TextColor: u.TextColor, Plan: u.Plan, Type: u.Type,
			IsAdmin: u.IsAdmin, IsReadOnly: u.IsReadOnly, IsAnonymous: u.IsAnonymous, IsGuest: u.IsGuest,
			Extra: u.Extra,
		},
		AccessRole: identity.Role(u.AccessRole),
	}
}

// userV1DTO is a User of /v1/users/update: v1 has no accessRole, so one
// sent anyway is dropped without a look (and never stored as an extra key).
type userV1DTO userDTO

func (u *userV1DTO) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	delete(raw, "accessRole")
	b, err := json.Marshal(raw)
	if err != nil {
		return err
	}
	return (*userDTO)(u).UnmarshalJSON(b)
}

func (*userV1DTO) OpenJSON() {}

func inputs[T userDTO | userV1DTO](users []T) []identity.UserInput {
	out := make([]identity.UserInput, len(users))
	for i, u := range users {
		out[i] = userDTO(u).input()
	}
	return out
}

type addUsersRequest struct {
	OrganizationID     string    `json:"organizationId" validate:"required"`
	CreateOrganization bool      `json:"createOrganization"` // a missing organization is always created
	DocumentID         string    `json:"documentId"`
	CreateDocument     bool      `json:"createDocument"`
	FolderID           string    `json:"folderId"`
	CreateFolder       bool      `json:"createFolder"`
	Users              []userDTO `json:"users" validate:"required,max=@identity.users"`
}

type updateUsersRequest struct {
	OrganizationID string    `json:"organizationId" validate:"required"`
	DocumentID     string    `json:"documentId"`
	FolderID       string    `json:"folderId"`
	Users          []userDTO `json:"users" validate:"required,max=@identity.users"`
}

type updateUsersV1Request struct {
	OrganizationID string      `json:"organizationId" validate:"required"`
	DocumentID     string      `json:"documentId"`
	FolderID       string      `json:"folderId"`
	Users          []userV1DTO `json:"users" validate:"required,max=@identity.users"`
}

type getUsersRequest struct {
	OrganizationID    string   `json:"organizationId" validate:"required"`
	DocumentID        string   `json:"documentId"`
	FolderID          string   `json:"folderId"`
	UserIDs           []string `json:"userIds" validate:"max=@identity.queryIds"`
	GroupIDs          []string `json:"organizationUserGroupIds" validate:"max=@identity.queryIds"`
	AllDocuments      bool     `json:"allDocuments"`
	GroupByDocumentID bool     `json:"groupByDocumentId"`
	PageSize          *int     `json:"pageSize" validate:"min=1,max=1000"`
	PageToken         string   `json:"pageToken"`
}

type deleteUsersRequest struct {
	OrganizationID string   `json:"organizationId" validate:"required"`
	DocumentID     string   `json:"documentId"`
	FolderID       string   `json:"folderId"`
	UserIDs        []string `json:"userIds" validate:"required,max=@identity.userIds"`
}

func scope(orgID, folderID, docID string) identity.Scope {
	return identity.Scope{OrganizationID: orgID, FolderID: folderID, DocumentID: docID}
}
