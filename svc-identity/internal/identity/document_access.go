package identity

import (
	"context"

	"github.com/opencollab/backend/pkg/api"
)

// DocumentAccess is which users have access to one document: the answer
// other services get when a caller asks them to verify users' permissions
// (notifications and comments with verifyUserPermissions).
type DocumentAccess struct {
	// UserIDs have some access role to the document, in the order asked,
	// each once.
	UserIDs []string
	// DocumentFound is false when the organization or the document does
	// not exist; nobody has access then.
	DocumentFound bool
}

// UsersWithDocumentAccess decides, for each user, what permissions/get
// would report for the document (grants, folders, restricted and public
// access types, expiry, disabled states): a user with any role has
// access. A missing organization or document is not an error but gives
// nobody access, so callers that filter (notifications) and callers that
// refuse (comments) read one answer.
func (s *Service) UsersWithDocumentAccess(ctx context.Context, ws, orgID, docID string, userIDs []string) (DocumentAccess, error) {
	users := distinct(userIDs)
	if len(users) == 0 {
		return DocumentAccess{}, api.Errorf(api.InvalidArgument, "field userIds must name at least one user")
	}
	q, res, err := s.loadDocument(ctx, ws, orgID, docID)
	if err != nil {
		return DocumentAccess{}, err
	}
	return s.documentAccess(ctx, ws, q, res, users)
}

// loadDocument reads what deciding access to one document needs besides
// the users' memberships: the organization, the document and its folders.
func (s *Service) loadDocument(ctx context.Context, ws, orgID, docID string) (PermissionsQuery, resources, error) {
	q := PermissionsQuery{OrganizationID: orgID, DocumentIDs: []string{docID}, SkipExistenceCheck: true}
	res, err := s.loadResources(ctx, ws, q)
	return q, res, err
}

// documentAccess decides users' access to q's one document, its resources
// res loaded by loadDocument: callers deciding many users in chunks load
// them once. A missing document reads no memberships: nobody has access.
func (s *Service) documentAccess(ctx context.Context, ws string, q PermissionsQuery, res resources, users []string) (DocumentAccess, error) {
	docID := q.DocumentIDs[0]
	_, found := res.docs[docID]
	out := DocumentAccess{UserIDs: []string{}, DocumentFound: found}
	if !found {
		return out, nil
	}
	q.UserIDs = users
	perms, _, err := s.decide(ctx, ws, q, res)
	if err != nil {
		return DocumentAccess{}, err
	}
	for _, id := range users {
		if perms[id].Documents[docID].AccessRole != "" {
			out.UserIDs = append(out.UserIDs, id)
		}
	}
	return out, nil
}

// distinct is ids without blanks and repeats, in order.
func distinct(ids []string) []string {
	out := make([]string, 0, len(ids))
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		if id != "" && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
