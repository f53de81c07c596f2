package identity

import "slices"

// PermInfo is the access of one user to one resource (permissions/get).
type PermInfo struct {
	AccessRole Role   `json:"accessRole,omitempty"`
	AccessType string `json:"accessType,omitempty"`
	ExpiresAt  *int64 `json:"expiresAt,omitempty"` // epoch ms
	Error      string `json:"error,omitempty"`
	ErrorCode  string `json:"errorCode,omitempty"`
}

// Error codes of a PermInfo.
const (
	CodeDoesNotExist     = "does_not_exist"
	CodePermissionDenied = "permission_denied"
)

// grants are one user's active memberships in one organization.
type grants struct {
	org     *Membership
	folders map[string]Membership
	docs    map[string]Membership
}

// grantsByUser groups the memberships still active at nowMs by user.
func grantsByUser(ms []Membership, nowMs int64) map[string]*grants {
	out := map[string]*grants{}
	for _, m := range ms {
		if !m.activeAt(nowMs) {
			continue
		}
		g := out[m.UserID]
		if g == nil {
			g = &grants{folders: map[string]Membership{}, docs: map[string]Membership{}}
			out[m.UserID] = g
		}
		switch m.Type {
		case ResourceOrganization:
			g.org = &m
		case ResourceFolder:
			g.folders[m.ResourceID] = m
		case ResourceDocument:
			g.docs[m.ResourceID] = m
		}
	}
	return out
}

// placement is what decides access to a folder or document besides the
// user's memberships: its effective access type, the folders it sits in
// (outermost first, itself included for a folder) and whether one of them
// is restricted.
type placement struct {
	accessType      string
	folders         []string
	underRestricted bool
}

// folderPlacement needs the folder's ancestors in known (missing ones are
// skipped).
func folderPlacement(f Folder, known map[string]Folder) placement {
	p := placement{accessType: f.AccessType}
	if p.accessType == "" {
		p.accessType = OrganizationPrivate
	}
	for _, id := range append(slices.Clone(f.Ancestors), f.ID) {
		if id == RootFolder {
			continue
		}
		p.folders = append(p.folders, id)
		if id == f.ID {
			p.underRestricted = p.underRestricted || f.AccessType == Restricted
		} else if a, ok := known[id]; ok && a.AccessType == Restricted {
			p.underRestricted = true
		}
	}
	return p
}

// documentPlacement: a document's own restricted or public access type
// wins; a default document takes its folder's, or organizationPrivate.
func documentPlacement(d Document, known map[string]Folder) placement {
	p := placement{accessType: OrganizationPrivate}
	if d.FolderID != "" {
		if f, ok := known[d.FolderID]; ok {
			p = folderPlacement(f, known)
		} else {
			p.folders = []string{d.FolderID}
		}
	}
	if d.AccessType == Restricted || d.AccessType == Public {
		p.accessType = d.AccessType
	}
	return p
}

// decide returns the user's access given the membership of the resource
// itself (documents) and its placement. The strongest granting membership
// wins; a public resource grants at least viewer.
func (g *grants) decide(own *Membership, p placement) PermInfo {
	var best *Membership
	consider := func(m *Membership) {
		if m != nil && (best == nil || stronger(*m, *best)) {
			best = m
		}
	}
	if g != nil {
		consider(own)
		for _, id := range p.folders {
			if m, ok := g.folders[id]; ok {
				consider(&m)
			}
		}
		if p.accessType != Restricted && !p.underRestricted {
			consider(g.org)
		}
	}
	switch {
	case best != nil:
		return PermInfo{AccessRole: best.AccessRole, AccessType: p.accessType, ExpiresAt: best.ExpiresAt}
	case p.accessType == Public:
		return PermInfo{AccessRole: RoleViewer, AccessType: p.accessType}
	}
	return PermInfo{AccessType: p.accessType, Error: "The user has no access to this resource.", ErrorCode: CodePermissionDenied}
}

// organizationAccess is the organization entry: role only.
func (g *grants) organizationAccess() PermInfo {
	if g == nil || g.org == nil {
		return PermInfo{Error: "The user is not a member of this organization.", ErrorCode: CodePermissionDenied}
	}
	return PermInfo{AccessRole: g.org.AccessRole, ExpiresAt: g.org.ExpiresAt}
}

// stronger prefers the higher role, then the grant that lasts longer.
func stronger(a, b Membership) bool {
	if a.AccessRole.rank() != b.AccessRole.rank() {
		return a.AccessRole.rank() > b.AccessRole.rank()
	}
	switch {
	case a.ExpiresAt == nil:
		return b.ExpiresAt != nil
	case b.ExpiresAt == nil:
		return false
	}
	return *a.ExpiresAt > *b.ExpiresAt
}
