package notify

import (
	"context"
	"fmt"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/docaccess"
)

// addVerifiedToAll is AddVerified of a NotifyAll notification: svc-identity
// lists the organization's users with access to the document now, and
// the notification is stored with them as its audience (AudienceUsers)
// in place of Everyone, so the "all" tab of anyone else never shows it,
// however their access changes later. The recipients are checked as
// without NotifyAll; only they get it on "For You". Too many users with
// access is refused (FAILED_PRECONDITION): the caller must name them.
func (s *Service) addVerifiedToAll(ctx context.Context, ws string, n Notification) (VerifiedAdd, error) {
	audience, found, err := s.access.OrganizationUsersWithAccess(ctx, ws, n.OrganizationID, n.DocumentID)
	if e, ok := api.AsError(err); ok && e.Status == api.FailedPrecondition {
		return VerifiedAdd{}, api.Errorf(api.FailedPrecondition,
			"verifyUserPermissions cannot notify every user of the organization with access to document %s: %s; send notifyAll: false with the recipients in notifyUsers",
			n.DocumentID, e.Message).WithCause(err)
	}
	if err != nil {
		return VerifiedAdd{}, err
	}
	out := VerifiedAdd{DocumentFound: found, ToAll: true, Audience: audience}
	// A recipient listed among the organization's users has access; one
	// who is not may still have (a public document is anyone's): asked.
	allowed, unlisted := docaccess.Partition(n.Recipients(), audience)
	if len(unlisted) > 0 && found {
		more, _, err := s.access.UsersWithAccess(ctx, ws, n.OrganizationID, n.DocumentID, unlisted)
		if err != nil {
			return VerifiedAdd{}, err
		}
		allowed = append(allowed, more...)
	}
	n = out.keepRecipients(n, allowed)
	if len(out.Kept) == 0 && len(audience) == 0 {
		return out, nil
	}
	n.AudienceVerified, n.AudienceUsers = true, sortedSet(audience)
	return s.storeVerified(ctx, ws, n, out)
}

// messageToAll is Message of a NotifyAll add.
func (v VerifiedAdd) messageToAll(docID string) string {
	left := ""
	if len(v.Dropped) > 0 {
		left = fmt.Sprintf("; recipients without access, not notified: %s", docaccess.NameUsers(v.Dropped))
	}
	switch {
	case !v.DocumentFound:
		return fmt.Sprintf("No notification added: document %s does not exist in the organization, so nobody has access.", docID)
	case !v.Stored:
		return fmt.Sprintf("No notification added: no user of the organization has access to document %s%s.", docID, left)
	}
	return fmt.Sprintf("Notification added for the %d users of the organization with access to document %s (the others do not see it)%s.",
		len(v.Audience), docID, left)
}
