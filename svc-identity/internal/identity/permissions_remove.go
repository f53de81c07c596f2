package identity

import "context"

// ResourceRef is one resource of permissions/remove.
type ResourceRef struct {
	Type           ResourceType
	ID             string
	OrganizationID string // required for documents; optional for folders
}

// RemovePermissions deletes userID's membership of each resource. For an
// organization that is the organization-level membership only; a folder
// without an organization id is removed in every organization.
func (s *Service) RemovePermissions(ctx context.Context, ws, userID string, refs []ResourceRef) error {
	for _, r := range refs {
		var err error
		switch {
		case r.Type == ResourceOrganization:
			_, err = s.store.DeleteMembership(ctx, ws, MembershipKey{
				OrganizationID: r.ID, Type: ResourceOrganization, ResourceID: r.ID, UserID: userID,
			})
		case r.OrganizationID == "":
			err = s.store.DeleteMemberships(ctx, ws, r.Type, r.ID, userID)
		default:
			_, err = s.store.DeleteMembership(ctx, ws, MembershipKey{
				OrganizationID: r.OrganizationID, Type: r.Type, ResourceID: r.ID, UserID: userID,
			})
		}
		if err != nil {
			return err
		}
		org := r.OrganizationID
		if r.Type == ResourceOrganization {
			org = r.ID
		}
		if err := s.revoke(ctx, ws, Revocation{UserID: userID, Type: r.Type, ResourceID: r.ID, OrganizationID: org}); err != nil {
			return err
		}
	}
	return nil
}
