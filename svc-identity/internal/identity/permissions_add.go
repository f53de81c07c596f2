package identity

import (
	"context"
	"fmt"
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
// and expiry (checked to lie in the future by the caller). A grant implies
// the resource exists, so a missing organization, folder (at the root) or
// document is created with defaults.
//
// The writes are ordered and idempotent (a retry completes a request that
// failed part way): the user, then every resource, then the memberships in
// one bulk write, then the revocations are lifted.
func (s *Service) AddPermissions(ctx context.Context, ws, userID string, grants []Grant) error {
	for i, g := range grants {
		if g.Type == ResourceFolder {
			if err := checkFolderID(fmt.Sprintf("permissions.resources[%d].id", i), g.ID); err != nil {
				return err
			}
		}
	}
	now := s.nowMilli()
	if err := s.store.SaveUsers(ctx, ws, []Profile{{UserID: userID}}, now); err != nil {
		return err
	}
	memberships := make([]Membership, len(grants))
	ensured := map[string]bool{} // organizations made to exist
	for i, g := range grants {
		if err := s.ensureGranted(ctx, ws, g, now, ensured); err != nil {
			return err
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

// ensureGranted makes g's resource exist; ensured remembers the
// organizations already made to exist by this request.
func (s *Service) ensureGranted(ctx context.Context, ws string, g Grant, now int64, ensured map[string]bool) error {
	orgID := g.key("").OrganizationID
	if !ensured[orgID] {
		if err := s.store.EnsureOrganization(ctx, ws, orgID, now); err != nil {
			return err
		}
		ensured[orgID] = true
	}
	switch g.Type {
	case ResourceFolder:
		return s.store.EnsureFolder(ctx, ws, newRootFolder(orgID, g.ID, now))
	case ResourceDocument:
		return s.store.EnsureDocument(ctx, ws, newDocument(orgID, g.ID, now))
	}
	return nil
}
