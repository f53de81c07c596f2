package notify

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/opencollab/backend/pkg/api"
)

// AccessChecker says which users have access to a document: svc-identity's
// decision (pkg/docaccess.Client). It fails rather than answer for want
// of one (not configured, unreachable: UNAVAILABLE).
type AccessChecker interface {
	UsersWithAccess(ctx context.Context, ws, orgID, docID string, userIDs []string) (withAccess []string, documentFound bool, err error)
}

// VerifiedAdd is what AddVerified did.
type VerifiedAdd struct {
	// Stored is false when no recipient has access: nothing was written.
	Stored       bool
	Notification Notification // as stored
	Kept         []string     // recipients with access, notified
	Dropped      []string     // recipients without access, left out
	// DocumentFound is false when svc-identity does not know the document
	// (nobody has access then).
	DocumentFound bool
}

// AddVerified is Add for the recipients with access to the document only
// (verifyUserPermissions): notifyUsers without access are not stored, a
// recipientUser without access is withheld (Notification.WithheldRecipient).
// When nobody is left nothing is written, which is an outcome, not an
// error. The whole organization (NotifyAll) cannot be filtered user by user
// and is refused, as is any add when access cannot be decided: it never
// falls back to notifying without the check.
func (s *Service) AddVerified(ctx context.Context, ws string, n Notification) (VerifiedAdd, error) {
	if err := validateNew(n); err != nil {
		return VerifiedAdd{}, err
	}
	if n.NotifyAll {
		return VerifiedAdd{}, api.Errorf(api.InvalidArgument,
			"verifyUserPermissions cannot filter notifyAll (every user of the organization, the default): send notifyAll: false with the recipients in notifyUsers")
	}
	if s.access == nil {
		return VerifiedAdd{}, api.Errorf(api.Unavailable, "document access cannot be verified: svc-identity is not configured")
	}
	recipients := n.Recipients()
	allowed, found, err := s.access.UsersWithAccess(ctx, ws, n.OrganizationID, n.DocumentID, recipients)
	if err != nil {
		return VerifiedAdd{}, err
	}
	has := make(map[string]bool, len(allowed))
	for _, id := range allowed {
		has[id] = true
	}
	out := VerifiedAdd{DocumentFound: found}
	for _, id := range recipients {
		if has[id] {
			out.Kept = append(out.Kept, id)
		} else {
			out.Dropped = append(out.Dropped, id)
		}
	}
	if len(out.Kept) == 0 {
		return out, nil
	}
	n.NotifyUsers = slices.DeleteFunc(slices.Clone(n.NotifyUsers), func(u User) bool { return !has[u.ID] })
	if r := n.RecipientUserID(); r != "" && !has[r] {
		n.WithheldRecipient = r
	}
	if out.Notification, err = s.Add(ctx, ws, n); err != nil {
		return VerifiedAdd{}, err
	}
	out.Stored = true
	return out, nil
}

// maxNamed bounds the user ids a message lists.
const maxNamed = 10

// Message says what was done for whom, naming (some of) the users left
// out, for the caller to tell why someone was not notified.
func (v VerifiedAdd) Message(docID string) string {
	total := len(v.Kept) + len(v.Dropped)
	switch {
	case !v.DocumentFound:
		return fmt.Sprintf("No notification added: document %s does not exist in the organization, so none of the %d recipients has access.", docID, total)
	case !v.Stored:
		return fmt.Sprintf("No notification added: none of the %d recipients has access to document %s (%s).", total, docID, named(v.Dropped))
	case len(v.Dropped) == 0:
		return fmt.Sprintf("Notification added for all %d recipients; each has access to document %s.", total, docID)
	}
	return fmt.Sprintf("Notification added for %d of %d recipients; without access to document %s, not notified: %s.",
		len(v.Kept), total, docID, named(v.Dropped))
}

// named lists ids, the first maxNamed of them.
func named(ids []string) string {
	if len(ids) <= maxNamed {
		return strings.Join(ids, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(ids[:maxNamed], ", "), len(ids)-maxNamed)
}
