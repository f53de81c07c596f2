package annotations

import "context"

// ScopeEnsurer creates the organization and document of a write when its
// caller asks (createOrganization, createDocument): svc-identity's
// (pkg/docscope.Client). Without svc-identity the flags have no effect.
type ScopeEnsurer interface {
	Ensure(ctx context.Context, ws, org, doc string, createOrg, createDoc bool) error
}

// WithScope sets who creates the organizations and documents adds ask for.
func (s *Service) WithScope(e ScopeEnsurer) *Service {
	s.scope = e
	return s
}

// ensureScope honours an add's createOrganization and createDocument, after
// its input was checked and before anything is written (so a verification
// of the authors' access finds the document it asked for).
func (s *Service) ensureScope(ctx context.Context, sc Scope, createOrg, createDoc bool) error {
	if s.scope == nil {
		return nil
	}
	return s.scope.Ensure(ctx, sc.WorkspaceID, sc.OrganizationID, sc.DocumentID, createOrg, createDoc)
}
