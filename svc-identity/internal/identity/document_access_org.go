package identity

import (
	"context"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/docaccess"
)

// Bounds of OrganizationUsersWithDocumentAccess.
const (
	// MaxUsersWithAccess is the most users it lists: the most one access
	// check names (identity.userIds) and the most recipients one
	// notification names (notify.notifyUsers), so a caller that stores the
	// list (svc-notify, as the notification's audience) stores no more
	// than an explicit add could.
	MaxUsersWithAccess = docaccess.MaxUsersWithAccess
	// MaxOrganizationUsersChecked is the most users of the organization it
	// decides. The organization, document and folders are read once, then
	// each accessCheckChunk of users is one memberships read, so a call
	// costs at most about 15 store commands however large the organization;
	// a restricted document in a larger one must be asked about named users.
	MaxOrganizationUsersChecked = docaccess.MaxOrganizationUsersChecked
	// accessCheckChunk is the most users one decision covers
	// (identity.userIds, the limit of permissions/get).
	accessCheckChunk = docaccess.MaxUserIDs
)

// OrganizationUsersWithDocumentAccess is UsersWithDocumentAccess for every
// user of the organization: those with a membership in it at any level
// (organization, folder or document, as users/add and permissions/add
// make them). A user with no membership has no access to a document that
// is not public, and is no user of the organization to list when it is
// (public means anyone). Each is decided by the same
// permissions/get decision, in userId order. More than
// MaxOrganizationUsersChecked users, or more than MaxUsersWithAccess with
// access, is FAILED_PRECONDITION: the caller must name the users. Nothing
// is written.
func (s *Service) OrganizationUsersWithDocumentAccess(ctx context.Context, ws, orgID, docID string) (DocumentAccess, error) {
	users, err := s.store.OrganizationUserIDs(ctx, ws, orgID, MaxOrganizationUsersChecked+1)
	if err != nil {
		return DocumentAccess{}, err
	}
	if len(users) > MaxOrganizationUsersChecked {
		return DocumentAccess{}, api.Errorf(api.FailedPrecondition,
			"organization %s has more than %d users, too many to check for access to document %s one by one", orgID, MaxOrganizationUsersChecked, docID)
	}
	// The organization, document and folders are read once; each chunk
	// reads its users' memberships.
	q, res, err := s.loadDocument(ctx, ws, orgID, docID)
	if err != nil {
		return DocumentAccess{}, err
	}
	_, found := res.docs[docID]
	out := DocumentAccess{UserIDs: []string{}, DocumentFound: found}
	for start := 0; start < len(users) && out.DocumentFound; start += accessCheckChunk {
		got, err := s.documentAccess(ctx, ws, q, res, users[start:min(start+accessCheckChunk, len(users))])
		if err != nil {
			return DocumentAccess{}, err
		}
		out.UserIDs = append(out.UserIDs, got.UserIDs...)
		if len(out.UserIDs) > MaxUsersWithAccess {
			return DocumentAccess{}, api.Errorf(api.FailedPrecondition,
				"more than %d users of organization %s have access to document %s, too many to list", MaxUsersWithAccess, orgID, docID)
		}
	}
	return out, nil
}
