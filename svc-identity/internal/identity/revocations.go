package identity

import (
	"context"
	"log/slog"
)

// A user token carries the grants the customer's backend decided when it
// minted it. Removing a grant afterwards (permissions/remove, users/delete)
// must take effect on tokens already handed out, so every removal is kept
// as a revocation: a grant of the token that a later removal covers no
// longer counts (DecideTokenAccess). Granting the resource again
// (permissions/add) lifts the revocation.

// Revocation is a removal of a user's grant at RevokedAt (epoch ms).
type Revocation struct {
	UserID         string
	Type           ResourceType // or RevokedMembership: every grant in the organization
	ResourceID     string
	OrganizationID string // "" for a folder removed in every organization
	RevokedAt      int64
}

// RevokedMembership is the revocation of users/delete at organization
// level: the user's every grant in the organization.
const RevokedMembership ResourceType = "organizationMembership"

// RevocationStore keeps revocations.
type RevocationStore interface {
	SaveRevocation(ctx context.Context, ws string, r Revocation) error
	// DeleteRevocation lifts the revocation of exactly this grant.
	DeleteRevocation(ctx context.Context, ws string, r Revocation) error
	// Revocations returns the user's revocations made at or after since
	// (epoch ms).
	Revocations(ctx context.Context, ws, userID string, since int64) ([]Revocation, error)
}

// AccessNotifier is told when a user's grants were removed, so open
// realtime sessions can be decided again at once.
type AccessNotifier interface {
	AccessRemoved(ctx context.Context, ws, userID, orgID string) error
}

// WithRevocations makes removals revoke the grants of tokens already
// handed out, and tells notify of them (nil: nobody).
func (s *Service) WithRevocations(store RevocationStore, notify AccessNotifier) *Service {
	s.revocations, s.notify = store, notify
	return s
}

// revoke records removals; the removal itself already happened, so a
// failure here is returned (the caller's request fails and may be retried,
// removals being idempotent).
func (s *Service) revoke(ctx context.Context, ws string, rs ...Revocation) error {
	if s.revocations == nil {
		return nil
	}
	now := s.nowMilli()
	for _, r := range rs {
		r.RevokedAt = now
		if err := s.revocations.SaveRevocation(ctx, ws, r); err != nil {
			return err
		}
		if s.notify != nil {
			if err := s.notify.AccessRemoved(ctx, ws, r.UserID, r.OrganizationID); err != nil {
				// Sessions are re-decided periodically anyway.
				slog.WarnContext(ctx, "identity: access removal not announced", "error", err)
			}
		}
	}
	return nil
}

// unrevoke lifts the revocation of a grant given again.
func (s *Service) unrevoke(ctx context.Context, ws, userID string, g Grant) error {
	if s.revocations == nil {
		return nil
	}
	k := g.key(userID)
	return s.revocations.DeleteRevocation(ctx, ws, Revocation{UserID: userID, Type: g.Type, ResourceID: g.ID, OrganizationID: k.OrganizationID})
}

// covers reports whether r removes grant m (a token grant about org).
func (r Revocation) covers(m Membership, org string) bool {
	if r.Type == RevokedMembership {
		return r.ResourceID == org
	}
	if r.Type != m.Type || r.ResourceID != m.ResourceID {
		return false
	}
	return r.OrganizationID == "" || m.OrganizationID == "" || r.OrganizationID == m.OrganizationID
}
