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
// without an organization id is removed in every organization. The
// memberships go with one delete, then each removal is recorded as a
// revocation; both idempotent, so a retry completes a request that failed
// part way.
func (s *Service) RemovePermissions(ctx context.Context, ws, userID string, refs []ResourceRef) error {
	grants := make([]ResourceRef, len(refs))
	for i, r := range refs {
		if r.Type == ResourceOrganization {
			r.OrganizationID = r.ID
		}
		grants[i] = r
	}
	if err := s.store.DeleteUserGrants(ctx, ws, userID, grants); err != nil {
		return err
	}
	revoked := make([]Revocation, len(grants))
	for i, r := range grants {
		revoked[i] = Revocation{UserID: userID, Type: r.Type, ResourceID: r.ID, OrganizationID: r.OrganizationID}
	}
	return s.revoke(ctx, ws, revoked)
}
