package identity

import "context"

// TokenAccess is what a verified user token says: who, when it was issued
// and the grants it carries.
type TokenAccess struct {
	UserID    string
	IssuedAt  int64 // epoch ms
	Resources []Grant
}

// DecideTokenAccess decides a token's access to one document, as
// permissions/get decides a user's stored memberships: the token's grants
// of the document, of its folders and of its organization count, minus
// those expired and those removed since the token was issued; the
// document's access type (restricted, public) applies as usual.
func (s *Service) DecideTokenAccess(ctx context.Context, ws string, t TokenAccess, org, doc string) (PermInfo, error) {
	var revs []Revocation
	if s.revocations != nil {
		var err error
		if revs, err = s.revocations.Revocations(ctx, ws, t.UserID, t.IssuedAt); err != nil {
			return PermInfo{}, err
		}
	}
	ms := tokenMemberships(t, org, revs)
	g := grantsByUser(ms, s.now().UnixMilli())[t.UserID]
	res, err := s.loadResources(ctx, ws, PermissionsQuery{OrganizationID: org, DocumentIDs: []string{doc}})
	if err != nil {
		return PermInfo{}, err
	}
	p, docOff := placement{accessType: OrganizationPrivate}, false
	if d, ok := res.docs[doc]; ok {
		p, docOff = documentPlacement(d, res.folders), d.Disabled
	}
	var own *Membership
	if g != nil {
		if m, ok := g.docs[doc]; ok {
			own = &m
		}
	}
	return res.disabled(g.decide(own, p), docOff), nil
}

// tokenMemberships are the token's grants about org that no revocation
// covers, as memberships (a folder or document grant without an
// organization id counts for any organization).
func tokenMemberships(t TokenAccess, org string, revs []Revocation) []Membership {
	var out []Membership
	for _, g := range t.Resources {
		m := Membership{MembershipKey: g.key(t.UserID), AccessRole: g.AccessRole, ExpiresAt: g.ExpiresAt}
		if m.AccessRole == "" {
			m.AccessRole = RoleEditor
		}
		if m.OrganizationID != "" && m.OrganizationID != org {
			continue
		}
		revoked := false
		for _, r := range revs {
			if r.covers(m, org) {
				revoked = true
				break
			}
		}
		if !revoked {
			m.OrganizationID = org
			out = append(out, m)
		}
	}
	return out
}
