package identity

import (
	"context"
	"errors"
	"fmt"

	"github.com/opencollab/backend/pkg/api"
)

// Grant is one resource of permissions/add.
type Grant struct {
	Type           ResourceType
	ID             string
	OrganizationID string // required for folders and documents; ignored for organizations
	AccessRole     Role   // "" = editor
	ExpiresAt      *int64 // epoch ms
}

func (g Grant) key(userID string) MembershipKey {
	if g.Type == ResourceOrganization {
		return MembershipKey{OrganizationID: g.ID, Type: ResourceOrganization, ResourceID: g.ID, UserID: userID}
	}
	return MembershipKey{OrganizationID: g.OrganizationID, Type: g.Type, ResourceID: g.ID, UserID: userID}
}

// AddPermissions grants userID each resource as a membership with its role
// and expiry (checked to lie in the future by the caller). A missing
// organization is created, as users/add creates one; a folder or document
// must exist (NOT_FOUND otherwise): nothing creates them implicitly but the
// create flags of users/add and documents/add. Every resource is checked
// before anything is written, so a refused request changes nothing.
//
// The writes are ordered and idempotent (a retry completes a request that
// failed part way): the user, the organizations, then the memberships in
// bounded bulk writes, then the revocations are lifted.
func (s *Service) AddPermissions(ctx context.Context, ws, userID string, grants []Grant) error {
	for i, g := range grants {
		if g.Type == ResourceFolder {
			if err := checkFolderID(fmt.Sprintf("permissions.resources[%d].id", i), g.ID); err != nil {
				return err
			}
		}
	}
	for i, g := range grants {
		if err := s.mustExistForGrant(ctx, ws, i, g); err != nil {
			return err
		}
	}
	now := s.nowMilli()
	if err := s.store.SaveUsers(ctx, ws, []Profile{{UserID: userID}}, now); err != nil {
		return err
	}
	memberships := make([]Membership, len(grants))
	for i, g := range grants {
		if g.Type == ResourceOrganization {
			if err := s.store.EnsureOrganization(ctx, ws, g.ID, now); err != nil {
				return err
			}
		}
		role := g.AccessRole
		if role == "" {
			role = RoleEditor
		}
		memberships[i] = Membership{MembershipKey: g.key(userID), AccessRole: role, ExpiresAt: g.ExpiresAt, CreatedAt: now}
	}
	if err := inChunks(memberships, func(chunk []Membership) error { return s.store.SaveMemberships(ctx, ws, chunk) }); err != nil {
		return err
	}
	for _, g := range grants {
		if err := s.unrevoke(ctx, ws, userID, g); err != nil {
			return err
		}
	}
	return nil
}

// mustExistForGrant refuses a grant of a folder or document that does not
// exist, naming the resource by its place in the request.
func (s *Service) mustExistForGrant(ctx context.Context, ws string, i int, g Grant) error {
	var err error
	switch g.Type {
	case ResourceFolder:
		_, err = s.store.GetFolder(ctx, ws, g.OrganizationID, g.ID)
	case ResourceDocument:
		_, err = s.store.GetDocument(ctx, ws, g.OrganizationID, g.ID)
	default:
		return nil
	}
	if errors.Is(err, ErrNotFound) {
		field := fmt.Sprintf("permissions.resources[%d]", i)
		return api.Errorf(api.NotFound, "%s: %s %s does not exist in organization %s; create it first (/v2/organizations/%ss/add)",
			field, g.Type, g.ID, g.OrganizationID, g.Type)
	}
	return err
}
