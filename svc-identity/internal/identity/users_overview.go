package identity

import (
	"context"
	"errors"
)

// UserOverviewStore answers what users/data/get reports about the user
// itself.
type UserOverviewStore interface {
	// CountUserMemberships counts the user's memberships of resources of
	// type t in the organization, leaving out those expired at activeAt
	// (epoch ms).
	CountUserMemberships(ctx context.Context, ws, orgID, userID string, t ResourceType, activeAt int64) (int64, error)
}

// UserOverview is the user's profile and a summary of their place in one
// organization.
type UserOverview struct {
	UserID       string             `json:"userId"`
	Name         string             `json:"name"`
	Email        string             `json:"email"`
	Organization MembershipOverview `json:"organization"`
}

// MembershipOverview summarises a user's active memberships in an
// organization. AccessRole is the organization-level role, nil without an
// organization-level membership; Folders and Documents count the folder
// and document memberships.
type MembershipOverview struct {
	OrganizationID string `json:"organizationId"`
	AccessRole     *Role  `json:"accessRole"`
	Folders        int64  `json:"folders"`
	Documents      int64  `json:"documents"`
}

// UserOverview returns the user's profile and memberships in the
// organization, or nil when identity knows neither. It costs a few indexed
// lookups, whatever the amount of the user's data.
func (s *Service) UserOverview(ctx context.Context, ws, orgID, userID string) (*UserOverview, error) {
	profiles, err := s.store.GetUsers(ctx, ws, []string{userID})
	if err != nil {
		return nil, err
	}
	summary, err := s.membershipOverview(ctx, ws, orgID, userID)
	if err != nil {
		return nil, err
	}
	profile, known := profiles[userID]
	if !known && summary.AccessRole == nil && summary.Folders == 0 && summary.Documents == 0 {
		return nil, nil
	}
	return &UserOverview{UserID: userID, Name: profile.Name, Email: profile.Email, Organization: summary}, nil
}

func (s *Service) membershipOverview(ctx context.Context, ws, orgID, userID string) (MembershipOverview, error) {
	out := MembershipOverview{OrganizationID: orgID}
	active := s.now().UnixMilli()
	m, err := s.store.GetMembership(ctx, ws, MembershipKey{
		OrganizationID: orgID, Type: ResourceOrganization, ResourceID: orgID, UserID: userID,
	})
	switch {
	case err == nil && m.activeAt(active):
		role := m.AccessRole
		out.AccessRole = &role
	case err != nil && !errors.Is(err, ErrNotFound):
		return out, err
	}
	if out.Folders, err = s.store.CountUserMemberships(ctx, ws, orgID, userID, ResourceFolder, active); err != nil {
		return out, err
	}
	out.Documents, err = s.store.CountUserMemberships(ctx, ws, orgID, userID, ResourceDocument, active)
	return out, err
}
