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
	// SaveRevocations records rs (at most writeChunk) with a bounded
	// number of store commands; saving one again moves its RevokedAt.
	SaveRevocations(ctx context.Context, ws string, rs []Revocation) error
	// DeleteRevocation lifts the revocation of exactly this grant.
	DeleteRevocation(ctx context.Context, ws string, r Revocation) error
	// Revocations returns the user's revocations made at or after since
	// (epoch ms).
	Revocations(ctx context.Context, ws, userID string, since int64) ([]Revocation, error)
}

// AccessNotifier is told when users' grants were removed, so open
// realtime sessions can be decided again at once. One call carries a
// whole batch of removals (one announcement per user and organization).
type AccessNotifier interface {
	AccessRemoved(ctx context.Context, ws string, removed []AccessRemoval) error
}

// AccessRemoval is one user who lost grants in one organization ("" for a
// folder removed in every organization).
type AccessRemoval struct {
	UserID, OrganizationID string
}

// WithRevocations makes removals revoke the grants of tokens already
// handed out, and tells notify of them (nil: nobody).
func (s *Service) WithRevocations(store RevocationStore, notify AccessNotifier) *Service {
	s.revocations, s.notify = store, notify
	return s
}

// revoke records removals, writeChunk at a time, then announces the
// users who lost access once for the whole batch: a store write per chunk
// and one event publication, not one of each per user (1,000 users took
// minutes one at a time). The removal itself already happened, so a failure to record
// is returned (the caller's request fails and may be retried, removals
// being idempotent).
func (s *Service) revoke(ctx context.Context, ws string, rs []Revocation) error {
	if s.revocations == nil || len(rs) == 0 {
		return nil
	}
	now := s.nowMilli()
	stamped := make([]Revocation, len(rs))
	for i, r := range rs {
		r.RevokedAt = now
		stamped[i] = r
	}
	err := inChunks(stamped, func(chunk []Revocation) error {
		return s.revocations.SaveRevocations(ctx, ws, chunk)
	})
	if err != nil {
		return err
	}
	if s.notify != nil {
		if err := s.notify.AccessRemoved(ctx, ws, removals(stamped)); err != nil {
			// Sessions are re-decided periodically anyway.
			slog.WarnContext(ctx, "identity: access removal not announced", "error", err)
		}
	}
	return nil
}

// removals are the distinct users and organizations of rs, in order: a
// user who lost a hundred documents of one organization is announced once.
func removals(rs []Revocation) []AccessRemoval {
	seen := make(map[AccessRemoval]bool, len(rs))
	out := make([]AccessRemoval, 0, len(rs))
	for _, r := range rs {
		a := AccessRemoval{UserID: r.UserID, OrganizationID: r.OrganizationID}
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	return out
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
