package notify

import (
	"context"
	"fmt"
	"slices"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/docaccess"
)

// AccessChecker says which users have access to a document: svc-identity's
// decision (pkg/docaccess.Client). It fails rather than answer for want
// of one (not configured, unreachable: UNAVAILABLE).
type AccessChecker interface {
	UsersWithAccess(ctx context.Context, ws, orgID, docID string, userIDs []string) (withAccess []string, documentFound bool, err error)
	// OrganizationUsersWithAccess lists the organization's users with
	// access, or fails with FAILED_PRECONDITION when there are too many.
	OrganizationUsersWithAccess(ctx context.Context, ws, orgID, docID string) (withAccess []string, documentFound bool, err error)
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
	// ToAll is set for a NotifyAll add: Audience are the organization's
	// users with access, who see it on the "all" tab.
	ToAll    bool
	Audience []string
}

// AddVerified is Add for the users with access to the document only
// (verifyUserPermissions): notifyUsers without access are not stored, a
// recipientUser without access is withheld (Notification.WithheldRecipient).
// NotifyAll reaches the organization's users with access, not Everyone
// (addVerifiedToAll). When nobody is left nothing is written, which is an
// outcome, not an error. An add whose access cannot be decided is refused:
// it never falls back to notifying without the check.
func (s *Service) AddVerified(ctx context.Context, ws string, n Notification) (VerifiedAdd, error) {
	if err := validateNew(n); err != nil {
		return VerifiedAdd{}, err
	}
	if s.access == nil {
		return VerifiedAdd{}, api.Errorf(api.Unavailable, "document access cannot be verified: svc-identity is not configured")
	}
	if n.NotifyAll {
		return s.addVerifiedToAll(ctx, ws, n)
	}
	recipients := n.Recipients()
	allowed, found, err := s.access.UsersWithAccess(ctx, ws, n.OrganizationID, n.DocumentID, recipients)
	if err != nil {
		return VerifiedAdd{}, err
	}
	out := VerifiedAdd{DocumentFound: found}
	n = out.keepRecipients(n, allowed)
	if len(out.Kept) == 0 {
		return out, nil
	}
	return s.storeVerified(ctx, ws, n, out)
}

// keepRecipients sorts n's recipients into Kept (in allowed) and Dropped
// and returns n without those dropped.
func (v *VerifiedAdd) keepRecipients(n Notification, allowed []string) Notification {
	v.Kept, v.Dropped = docaccess.Partition(n.Recipients(), allowed)
	kept := make(map[string]bool, len(v.Kept))
	for _, id := range v.Kept {
		kept[id] = true
	}
	n.NotifyUsers = slices.DeleteFunc(slices.Clone(n.NotifyUsers), func(u User) bool { return !kept[u.ID] })
	if r := n.RecipientUserID(); r != "" && !kept[r] {
		n.WithheldRecipient = r
	}
	return n
}

// storeVerified adds n, the outcome v of its check.
func (s *Service) storeVerified(ctx context.Context, ws string, n Notification, v VerifiedAdd) (VerifiedAdd, error) {
	var err error
	if v.Notification, err = s.Add(ctx, ws, n); err != nil {
		return VerifiedAdd{}, err
	}
	v.Stored = true
	return v, nil
}

// Message says what was done for whom, naming (some of) the users left
// out, for the caller to tell why someone was not notified.
func (v VerifiedAdd) Message(docID string) string {
	if v.ToAll {
		return v.messageToAll(docID)
	}
	total := len(v.Kept) + len(v.Dropped)
	switch {
	case !v.DocumentFound:
		return fmt.Sprintf("No notification added: document %s does not exist in the organization, so none of the %d recipients has access.", docID, total)
	case !v.Stored:
		return fmt.Sprintf("No notification added: none of the %d recipients has access to document %s (%s).", total, docID, docaccess.NameUsers(v.Dropped))
	case len(v.Dropped) == 0:
		return fmt.Sprintf("Notification added for all %d recipients; each has access to document %s.", total, docID)
	}
	return fmt.Sprintf("Notification added for %d of %d recipients; without access to document %s, not notified: %s.",
		len(v.Kept), total, docID, docaccess.NameUsers(v.Dropped))
}
