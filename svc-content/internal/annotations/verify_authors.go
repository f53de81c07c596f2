package annotations

import (
	"context"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/docaccess"
)

// AccessChecker says which users have access to a document: svc-identity's
// decision (pkg/docaccess.Client). It fails rather than answer for want
// of one (not configured, unreachable: UNAVAILABLE).
type AccessChecker interface {
	UsersWithAccess(ctx context.Context, ws, orgID, docID string, userIDs []string) (withAccess []string, documentFound bool, err error)
}

// WithAccess sets who decides authors' document access for
// verifyUserPermissions; without it such requests answer UNAVAILABLE.
func (s *Service) WithAccess(a AccessChecker) *Service {
	s.access = a
	return s
}

// verifyAuthors is verifyUserPermissions: every comment's author (its
// from.userId; an annotation's author is its first comment's) must have
// access to the document, else the request is refused with
// PERMISSION_DENIED naming those without, before anything is written. It
// asks svc-identity once per request, outside any lock, and never lets a
// request through unchecked.
func (s *Service) verifyAuthors(ctx context.Context, sc Scope, comments []CommentInput) error {
	if s.access == nil {
		return api.Errorf(api.Unavailable, "document access cannot be verified: svc-identity is not configured")
	}
	authors := make([]string, 0, len(comments))
	seen := map[string]bool{}
	for _, c := range comments {
		if id := userID(c.From); id != "" && !seen[id] {
			seen[id] = true
			authors = append(authors, id)
		}
	}
	allowed, found, err := s.access.UsersWithAccess(ctx, sc.WorkspaceID, sc.OrganizationID, sc.DocumentID, authors)
	if err != nil {
		return err
	}
	if !found {
		return api.Errorf(api.PermissionDenied,
			"verifyUserPermissions: document %s does not exist in organization %s (organizations/documents/add), so no author has access; nothing was written",
			sc.DocumentID, sc.OrganizationID)
	}
	_, denied := docaccess.Partition(authors, allowed)
	if len(denied) == 0 {
		return nil
	}
	return api.Errorf(api.PermissionDenied,
		"verifyUserPermissions: %d author(s) without access to document %s: %s; nothing was written", len(denied), sc.DocumentID, docaccess.NameUsers(denied))
}
